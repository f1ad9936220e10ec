// The trace page's export (issue #36 item 2): exactly what the page shows — the agent's calls, the reviewers'
// decisions and the execution — as CSV or JSON, for whoever may look the trace up; audited under audit:<trace>,
// never under the trace it reads; another tenant's trace is empty.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { exportAuditTrace } from "@/lib/server/audit/export-audit-trace";
import { exportAuditEvents } from "@/lib/server/audit/export-audit-events";
import { claimProposal } from "@/lib/server/proposals/claim-proposal";
import { getAuditTrace } from "@/lib/server/audit/get-audit-trace";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { actorFor, staffOf } from "../support/actors";
import { ES, US, ana, anthropicCall, headersFor, send, tokenFor, webKey } from "./gateway-support";
import { freshCardOrder } from "./proposal-support";

async function preparedAndApproved() {
  const trace = `export-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const { number } = await freshCardOrder(2_500, { prefix: "TX" });
  const h = headersFor({ key: webKey(ES), token: await tokenFor(ES, ana), trace });
  await send(anthropicCall("lookup_order", { order_id: number }), h);
  const a = await send(anthropicCall("prepare_refund", { order_id: number, reason: "damaged_item" }), h);
  expect(a.content.code).toBe("approval_required");
  const p = await db().proposal.findUniqueOrThrow({
    where: { id: (a.content.result as { proposal_id: string }).proposal_id },
  });
  const reviewer = await actorFor(staffOf(ES, "reviewer").email);
  await claimProposal(reviewer, p.id);
  await approveProposal(reviewer, { proposalId: p.id, hash: p.hash });
  return { trace, proposal: p };
}

describe("decisions belong to the proposal's trace", () => {
  it("the audit export by traceId holds the claim and the approval, the reviewer's request trace kept as a link", async () => {
    const { trace } = await preparedAndApproved();
    const auditor = await actorFor(staffOf(ES, "auditor").email);
    const file = await exportAuditEvents(auditor, { traceId: trace }, "json");
    const events = (
      JSON.parse(file.body) as { events: { action: string; traceId: string; data: Record<string, unknown> }[] }
    ).events;
    expect(events.map((e) => e.action)).toEqual(
      expect.arrayContaining(["tool:prepare_refund", "proposal:claim", "proposal:approve"]),
    );
    const approve = events.find((e) => e.action === "proposal:approve")!;
    expect(approve.traceId).toBe(trace);
    expect(typeof approve.data.requestTrace).toBe("string");
    expect(approve.data.requestTrace).not.toBe(trace);
    expect(file.body).toContain("proposal:claim");
  });
});

describe("the trace page's export", () => {
  it("holds exactly the page's steps — the approval included — as JSON and CSV, for a reviewer too", async () => {
    const { trace, proposal } = await preparedAndApproved();
    const reviewer = await actorFor(staffOf(ES, "reviewer", 1).email);
    const page = await getAuditTrace(reviewer, trace);
    const json = await exportAuditTrace(reviewer, trace, "json");
    const body = JSON.parse(json.body) as { steps: { id: string; action: string }[]; proposals: { id: string }[] };
    expect(body.steps.map((s) => s.id)).toEqual(page.steps.map((s) => s.id));
    expect(body.steps.map((s) => s.action)).toEqual(
      expect.arrayContaining(["tool:lookup_order", "tool:prepare_refund", "proposal:approve"]),
    );
    expect(body.proposals.map((p) => p.id)).toEqual([proposal.id]);
    expect(json).toMatchObject({ contentType: "application/json; charset=utf-8", count: page.steps.length });

    const csv = await exportAuditTrace(reviewer, trace, "csv");
    const lines = csv.body.trim().split("\r\n");
    expect(lines).toHaveLength(page.steps.length + 1);
    expect(csv.body).toContain('"proposal:approve"');
    expect(csv.filename).toMatch(/^trace-export-.*\.csv$/);

    // Audited under audit:<trace>: the export is not filed under the customer's trace it reads.
    const exported = await db().auditEvent.findFirstOrThrow({
      where: { action: "audit:export_trace", actorId: reviewer.userId },
      orderBy: { pos: "desc" },
    });
    expect(exported).toMatchObject({ traceId: `audit:${trace}`, outcome: "ok" });
    expect(await db().auditEvent.count({ where: { traceId: trace, action: { startsWith: "audit:" } } })).toBe(0);
  });

  it("another tenant's trace exports empty, and a role without trace lookup is refused", async () => {
    const { trace } = await preparedAndApproved();
    const us = await actorFor(staffOf(US, "auditor").email);
    const foreign = await exportAuditTrace(us, trace, "json");
    expect((JSON.parse(foreign.body) as { steps: unknown[] }).steps).toEqual([]);
    expect(foreign.count).toBe(0);
    const noRole = { ...(await actorFor(staffOf(ES, "reviewer").email)), roles: [] };
    await expect(exportAuditTrace(noRole, trace, "csv")).rejects.toMatchObject({ code: "permission_denied" });
  });
});
