// Traces end to end through a real OTLP/HTTP receiver on loopback (JSON protocol): the agent's prepare_refund
// (parent = the agent's traceparent) → the reviewer's approval → the execution job → the call to the real
// sandbox provider → the audit sequencer's batch (linked), as ONE trace; an MCP call whose trace context
// travels in params._meta.traceparent; traceresponse on the answers; and no personal data in anything exported.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as toolCallsPOST } from "@/app/api/agent/tool-calls/route";
import { POST as mcpPOST } from "@/app/api/mcp/route";
import { integratePending } from "@/lib/server/audit/sequencer";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { traceDecision } from "@/lib/server/telemetry/decision-span";
import { flushTelemetry, startTelemetry, stopTelemetry } from "@/lib/server/telemetry/setup";
import { withSpan } from "@/lib/server/telemetry/tracing";
import { db } from "@/lib/server/db/client";
import { actorFor, staffOf } from "../support/actors";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "../support/otlp-receiver";
import { runJobsOnce } from "../support/run-jobs-once";
import { startSandboxProvider, type SandboxProvider } from "../support/sandbox-provider";
import { ES, ana, anthropicCall, send, tokenFor, webKey } from "./gateway-support";
import { sandboxCardOrder } from "./proposal-support";

const EMAIL = "canary.person@example.org";
const CARD = "4242424242424242";
const IBAN = "ES9121000418450200051332";
const PHONE = "+34 612 345 678";

let receiver: OtlpReceiver;
let sandbox: SandboxProvider;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
  process.env.OTEL_EXPORTER_OTLP_PROTOCOL = "http/json";
  expect(startTelemetry("app").exporting).toBe(true);
  sandbox = await startSandboxProvider();
});

afterAll(async () => {
  await stopTelemetry();
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete process.env.OTEL_EXPORTER_OTLP_PROTOCOL;
  await sandbox?.stop();
  await receiver?.close();
});

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

/** Flushes the SDK and waits until the receiver holds a span matching `pred` (the exporter posts asynchronously). */
async function received(pred: (s: ReceivedSpan) => boolean, what: string): Promise<ReceivedSpan> {
  const end = Date.now() + 10_000;
  for (;;) {
    await flushTelemetry();
    const found = receiver.spans.find(pred);
    if (found) return found;
    if (Date.now() > end)
      throw new Error(`no ${what} span received; got: ${receiver.spans.map((s) => s.name).join(", ")}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("one trace from the agent's call to the provider", () => {
  it("prepare_refund → approve_proposal → execute_refund → provider call, the sequencer's batch linked; traceresponse answers", async () => {
    const order = await sandboxCardOrder(sandbox.control, 1500, "OTEL");
    const token = await tokenFor(ES, ana);
    const traceId = hex(16);
    const agentSpan = hex(8);
    const a = await send(anthropicCall("prepare_refund", { order_id: order.number, reason: "damaged_item" }), {
      authorization: `Bearer ${webKey()}`,
      "x-end-user-token": token,
      traceparent: `00-${traceId}-${agentSpan}-01`,
    });
    expect(a.content.code).toBe("approval_required");
    expect(a.traceId).toBe(traceId);
    const proposalId = (a.content.result as { proposal_id: string }).proposal_id;
    const proposal = await db().proposal.findUniqueOrThrow({ where: { id: proposalId } });

    // The agent's span is the parent; the answer's traceresponse names the span that handled the call.
    const tool = await received(
      (s) => s.name === "execute_tool prepare_refund" && s.traceId === traceId,
      "execute_tool",
    );
    expect(tool.parentSpanId).toBe(agentSpan);
    expect(tool.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "prepare_refund",
      "approvalgw.outcome": "approval_required",
      "approvalgw.proposal.id": proposalId,
      "approvalgw.proposal.hash": proposal.hash,
    });
    expect(String(tool.attributes["gen_ai.tool.call.id"])).toMatch(/^toolu_/);
    expect(proposal.traceparent).toBe(`00-${traceId}-${tool.spanId}-01`);

    // The reviewer approves (the route runs the use case inside traceDecision, app/api/proposals/[id]/approve).
    const reviewer = await actorFor(staffOf(ES, "reviewer").email);
    const approved = await traceDecision("approve", reviewer, proposal.id, () =>
      approveProposal(reviewer, { proposalId: proposal.id, hash: proposal.hash }),
    );
    expect(approved.status).toBe("approved");
    const approval = await received((s) => s.name === "approve_proposal" && s.traceId === traceId, "approve_proposal");
    expect(approval.parentSpanId).toBe(tool.spanId);
    expect(approval.attributes).toMatchObject({
      "approvalgw.proposal.id": proposal.id,
      "approvalgw.proposal.hash": proposal.hash,
      "approvalgw.decision": "approve",
      "approvalgw.outcome": "approved",
      "approvalgw.reviewer.staff_id": reviewer.userId,
    });
    expect(approval.attributes["approvalgw.approval.wait_seconds"]).toBeGreaterThanOrEqual(0);

    // The execution job carries the approval's context; the provider call is its child.
    await runJobsOnce();
    const execution = await received((s) => s.name === "execute_refund" && s.traceId === traceId, "execute_refund");
    expect(execution.parentSpanId).toBe(approval.spanId);
    expect(execution.attributes["approvalgw.proposal.id"]).toBe(proposal.id);
    const provider = await received(
      (s) => s.name === "payment_provider create_refund" && s.traceId === traceId,
      "provider call",
    );
    expect(provider.parentSpanId).toBe(execution.spanId);
    expect(provider.attributes).toMatchObject({
      "approvalgw.provider.outcome": "succeeded",
      "approvalgw.idempotency_key": `refund-${proposal.id}`,
    });
    expect((await db().execution.findUniqueOrThrow({ where: { proposalId: proposal.id } })).status).toBe("succeeded");

    // The sequencer's batch is its own trace and links to the spans that wrote this trace's events.
    await integratePending();
    const batch = await received(
      (s) => s.name === "integrate_audit_batch" && s.links.some((l) => l.traceId === traceId),
      "integrate_audit_batch",
    );
    const linked = new Set(batch.links.filter((l) => l.traceId === traceId).map((l) => l.spanId));
    for (const writer of [tool, approval, execution]) expect(linked, writer.name).toContain(writer.spanId);
    expect(batch.traceId).not.toBe(traceId);
    expect(batch.service).toBe("approval-gateway");

    // Everything of the flow but the batch is one trace.
    for (const s of [tool, approval, execution, provider]) expect(s.traceId).toBe(traceId);
  });

  it("answers traceresponse with the call's span; an unsampled traceparent is answered with flags 00 and nothing recorded", async () => {
    const traceId = hex(16);
    const call = (flags: string) =>
      toolCallsPOST(
        new Request("http://localhost/api/agent/tool-calls", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${webKey()}`,
            traceparent: `00-${traceId}-${hex(8)}-${flags}`,
          },
          body: JSON.stringify(
            anthropicCall("get_refund_status", { proposal_id: "00000000-0000-4000-8000-000000000000" }),
          ),
        }),
      );
    const sampled = await call("01");
    const tool = await received(
      (s) => s.name === "execute_tool get_refund_status" && s.traceId === traceId,
      "get_refund_status",
    );
    expect(sampled.headers.get("traceresponse")).toBe(`00-${traceId}-${tool.spanId}-01`);
    const unsampled = await call("00");
    const answered = unsampled.headers.get("traceresponse");
    expect(answered).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-00$`));
    await flushTelemetry();
    expect(receiver.spans.filter((s) => s.traceId === traceId)).toHaveLength(1);
  });

  it("without a trace header, the call joins the request's HTTP span (as under Next.js) and X-Trace-Id is that trace", async () => {
    const http = await withSpan("POST /api/agent/tool-calls", {}, async (span) => ({
      span: span.spanContext(),
      res: await send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), {
        authorization: `Bearer ${webKey()}`,
        "x-end-user-token": await tokenFor(ES, ana),
      }),
    }));
    expect(http.res.traceId).toBe(http.span.traceId);
    const tool = await received(
      (s) => s.name === "execute_tool lookup_order" && s.traceId === http.span.traceId,
      "lookup_order under HTTP span",
    );
    expect(tool.parentSpanId).toBe(http.span.spanId);
  });
});

describe("MCP: the trace context in params._meta", () => {
  it("a tools/call carrying _meta.traceparent (and no header) is a child of it, and the answer names that trace", async () => {
    const traceId = hex(16);
    const parent = hex(8);
    const res = await mcpPOST(
      new Request("http://localhost/api/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${webKey()}`,
          "x-end-user-token": await tokenFor(ES, ana),
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 7,
          method: "tools/call",
          params: {
            name: "lookup_order",
            arguments: { order_id: "ORD-1001" },
            _meta: { traceparent: `00-${traceId}-${parent}-01` },
          },
        }),
      }),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: { structuredContent: { code: string; traceId: string } } };
    expect(body.result.structuredContent).toMatchObject({ code: "ok", traceId });
    expect(res.headers.get("x-trace-id")).toBe(traceId);
    const span = await received(
      (s) => s.name === "execute_tool lookup_order" && s.traceId === traceId,
      "MCP execute_tool",
    );
    expect(span.parentSpanId).toBe(parent);
    expect(span.attributes["approvalgw.transport"]).toBe("mcp");
    expect(span.attributes["gen_ai.tool.call.id"]).toBe("7");
    expect(res.headers.get("traceresponse")).toBe(`00-${traceId}-${span.spanId}-01`);
  });
});

describe("no personal data on spans", () => {
  it("arguments, headers, tool names and call ids holding an e-mail, card, IBAN, phone, end-user token and agent key export none of them", async () => {
    const token = await tokenFor(ES, ana);
    const traceId = hex(16);
    const headers = {
      authorization: `Bearer ${webKey()}`,
      "x-end-user-token": token,
      traceparent: `00-${traceId}-${hex(8)}-01`,
      "x-agent-model": `model ${EMAIL}`,
      "x-agent-prompt-version": `v1 ${CARD}`,
    };
    await send(
      {
        type: "tool_use",
        id: `toolu ${EMAIL}`,
        name: "prepare_refund",
        input: { order_id: "ORD-1001", reason: "damaged_item", email: EMAIL, iban: IBAN, phone: PHONE, card: CARD },
      },
      headers,
    );
    await send(
      anthropicCall("create_support_ticket", {
        category: "billing",
        priority: "urgent",
        summary: `Pay ${IBAN} or card ${CARD}, call ${PHONE}, mail ${EMAIL}`,
      }),
      headers,
    );
    await send(anthropicCall(EMAIL, { note: CARD }), headers);
    await send(anthropicCall(`refund ${CARD}`, {}), headers);
    await send(anthropicCall("lookup_order", { order_id: IBAN }), headers);
    await received((s) => s.traceId === traceId && s.name === "execute_tool lookup_order", "last canary call");
    const inTrace = receiver.spans.filter((s) => s.traceId === traceId);
    expect(inTrace.length).toBeGreaterThanOrEqual(5);
    const exported = receiver.bodies.join("\n");
    for (const canary of [
      EMAIL,
      CARD,
      IBAN,
      PHONE,
      "612 345 678",
      "612345678",
      token,
      webKey(),
      "4242 4242 4242 4242",
    ]) {
      expect(exported, canary).not.toContain(canary);
    }
    // The scan reads real exports: the invented tool names are there, scrubbed.
    expect(inTrace.map((s) => s.name)).toEqual(
      expect.arrayContaining(["execute_tool prepare_refund", "execute_tool create_support_ticket"]),
    );
    expect(inTrace.filter((s) => s.attributes["approvalgw.outcome"] === "unknown_tool")).toHaveLength(2);
  });
});
