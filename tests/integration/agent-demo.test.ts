// `npm run agent:demo` (scripts/agent-demo.ts), the real script in its own process, against the real agent
// routes over HTTP: it recovers from an invented tool, is refused an amount of its own, prepares the refund and
// exits 0 with the proposal id; the proposal waits for a reviewer with the whole conversation on one trace.
// (The browser specs used to spawn it for every proposal; they now make proposals in-process, e2e/support/gateway.ts.)
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { stopProposalChanges } from "@/lib/server/realtime/proposal-changes";
import { startGatewayServer } from "../support/gateway-http-server";
import { ES, ana } from "./gateway-support";
import { createPaidOrder } from "../../scripts/lib/fixtures";
import { asRefund } from "@/lib/domain/refund-row";

const execFileAsync = promisify(execFile);
let gateway: Awaited<ReturnType<typeof startGatewayServer>>;
beforeAll(async () => {
  gateway = await startGatewayServer();
});
afterAll(async () => {
  await gateway?.close();
  await stopProposalChanges();
});

const run = (args: string[]) =>
  execFileAsync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "scripts/agent-demo.ts", "--base-url", gateway.url, ...args],
    { env: process.env, timeout: 60_000, encoding: "utf8" },
  );

describe("npm run agent:demo", () => {
  it("prepares a refund of the first customer's order after recovering from an invented tool; one trace holds it all", async () => {
    const t = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
    const { number } = await createPaidOrder(db(), t, {
      customerId: ana,
      amountMinor: 4_321,
      prefix: "AD",
      holderName: "Ana García",
    });
    const { stdout } = await run(["--tenant", ES, "--order", number]);
    expect(stdout).toContain("← unknown_tool (is_error)");
    expect(stdout).toContain("Proposal awaiting a human reviewer:");
    const id = /id:\s+([0-9a-f-]{36})/.exec(stdout)?.[1];
    const proposal = asRefund(await db().proposal.findUniqueOrThrow({ where: { id: id! }, include: { order: true } }));
    expect(proposal).toMatchObject({ status: "pending_approval", amountMinor: 4_321 });
    expect(proposal.order.number).toBe(number);
    const trail = await db().auditEvent.findMany({
      where: { traceId: proposal.traceId, action: { startsWith: "tool:" } },
      orderBy: { pos: "asc" },
      select: { action: true, outcome: true },
    });
    expect(trail.map((e) => [e.action, e.outcome])).toEqual([
      ["tool:search_invoices", "unknown_tool"],
      ["tool:lookup_order", "ok"],
      ["tool:prepare_refund", "invalid_arguments"],
      ["tool:prepare_refund", "approval_required"],
      ["tool:get_refund_status", "approval_required"],
    ]);
  });

  it("an order it cannot refund: exits 1 and says why", async () => {
    const res = await run(["--tenant", ES, "--order", "ORD-NOPE-1"]).then(
      () => ({ code: 0, stderr: "" }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("✗ could not look up ORD-NOPE-1: not_found");
  });
});
