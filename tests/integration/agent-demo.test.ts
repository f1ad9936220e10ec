// `npm run agent:demo` (scripts/agent-demo.ts), the real script in its own process, against the real agent
// routes over HTTP: it recovers from an invented tool, is refused an amount of its own, prepares the refund and
// exits 0 with the proposal id; the proposal waits for a reviewer with the whole conversation on one trace. Then the
// kinds the shop carries out (the seed allows their tools): skipped with the reason while the tenant has no action
// endpoint; with one, an address change, a cancellation and a contact change each await a reviewer, each its own
// conversation and trace.
// (The browser specs used to spawn it for every proposal; they now make proposals in-process, e2e/support/gateway.ts.)
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { stopProposalChanges } from "@/lib/server/realtime/proposal-changes";
import { startGatewayServer } from "../support/gateway-http-server";
import { ES, ana } from "./gateway-support";
import { createPaidOrder } from "../../scripts/lib/fixtures";
import { asRefund } from "@/lib/domain/refund-row";
import { proposalStatus } from "@/lib/domain/proposal-state";
import { demoTenants } from "../../scripts/lib/demo-data";
import { saveDemoActionEndpoints } from "../../scripts/lib/demo-shop-endpoints";

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
    // No action endpoint in the test data: the three kinds the shop carries out are skipped, and it still exits 0.
    expect(stdout.match(/skipped: this tenant has no action endpoint/g), stdout).toHaveLength(3);
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

  it("with an action endpoint: an address change awaits the customer, a cancellation and a contact change a reviewer, each on its own trace", async () => {
    // Prepared only, never carried out here: the endpoint is saved (its secret sealed), nothing listens behind it.
    const secretsKey = process.env.SECRETS_KEY;
    process.env.SECRETS_KEY ??= randomBytes(32).toString("base64");
    try {
      await saveDemoActionEndpoints([{ tenant: ES, url: "http://127.0.0.1:1" }]);
    } finally {
      if (secretsKey === undefined) delete process.env.SECRETS_KEY;
    }
    const seeded = demoTenants.find((t) => t.slug === ES)!.customers[0]!.email;
    const [local, domain] = seeded.split("@");
    // As if an earlier run's contact change had been carried out: its first address is on record, it gives the other.
    const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
    await db().customer.update({
      where: { tenantId_id: { tenantId: tenant.id, id: ana } },
      data: { email: `${local}.new@${domain}` },
    });
    const { stdout } = await run(["--tenant", ES]);
    expect(stdout, stdout).not.toContain("skipped:");
    for (const title of ["Cancellation", "Contact change"])
      expect(stdout, stdout).toContain(`${title} awaiting a human reviewer`);
    // The address change stays within Spain: only the customer confirms it, on the link the demo prints.
    expect(stdout, stdout).toContain("Address change awaiting the customer's confirmation on their link");
    expect(stdout, stdout).toMatch(/customer's link: +https?:\/\/\S+\/confirm\/[A-Za-z0-9_-]+/);

    const waiting = await db().proposal.findMany({
      where: { tenant: { slug: ES }, status: proposalStatus.pendingApproval, kind: { not: "refund" } },
      select: { kind: true, traceId: true, params: true },
    });
    expect(waiting.map((p) => p.kind).sort()).toEqual([
      "cancel_order",
      "change_shipping_address",
      "update_customer_contact",
    ]);
    const contact = waiting.find((p) => p.kind === "update_customer_contact")!;
    expect(contact.params).toMatchObject({ customer: { id: ana }, field: "email", after: `${local}.other@${domain}` });
    expect(new Set(waiting.map((p) => p.traceId)).size).toBe(3);
    const trail = await db().auditEvent.findMany({
      where: { traceId: contact.traceId, action: { startsWith: "tool:" } },
      orderBy: { pos: "asc" },
      select: { action: true, outcome: true },
    });
    expect(trail.map((e) => [e.action, e.outcome])).toEqual([
      ["tool:prepare_contact_change", "invalid_arguments"],
      ["tool:prepare_contact_change", "approval_required"],
      ["tool:get_action_status", "approval_required"],
    ]);
  });
});
