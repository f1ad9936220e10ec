// A rejection separates the message for the customer from the staff-only internal note: the agent reads
// only the customer message (get_refund_status), the audit log records only that a note exists, and staff
// see both with who and when.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { rejectProposal } from "@/lib/server/proposals/reject-proposal";
import { getProposal } from "@/lib/server/proposals/get-proposal";
import { actorFor, staffOf } from "../support/actors";
import { ES, ana, anthropicCall, headersFor, send, tokenFor, webKey } from "./gateway-support";
import { preparedForFreshOrder } from "./proposal-support";
import { asRefund } from "@/lib/domain/refund-row";

const NOTE = "Internal: customer flagged for chargeback abuse, ticket ZX-991";
const MESSAGE = "This order is outside the refund window.";

describe("rejectProposal with an internal note", () => {
  it("the agent sees only the customer message; the audit log never holds the note; staff see both with who and when", async () => {
    const lucia = await actorFor(staffOf(ES, "reviewer", 0).email);
    const { proposal } = await preparedForFreshOrder(4_321, { prefix: "R" });
    await rejectProposal(lucia, {
      proposalId: proposal.id,
      hash: proposal.hash,
      customerMessage: MESSAGE,
      internalNote: NOTE,
    });

    const row = asRefund(await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } }));
    expect(row).toMatchObject({
      rejectionReason: MESSAGE,
      rejectionInternalNote: NOTE,
      rejectedByStaffId: lucia.userId,
    });
    expect(row.decidedAt).toBeInstanceOf(Date);

    const answer = await send(
      anthropicCall("get_refund_status", { proposal_id: proposal.id }),
      headersFor({ key: webKey(ES), token: await tokenFor(ES, ana) }),
    );
    expect(answer.content.code).toBe("rejected");
    const seenByAgent = JSON.stringify(answer);
    expect(seenByAgent).toContain(MESSAGE);
    expect(seenByAgent).not.toContain("chargeback");
    expect(seenByAgent).not.toContain("ZX-991");

    // A new prepare for the same order during the cooldown repeats the rejection: still only the message.
    const again = await send(
      anthropicCall("prepare_refund", {
        order_id: (await db().order.findUniqueOrThrow({ where: { id: row.orderId } })).number,
        reason: "damaged_item",
      }),
      headersFor({ key: webKey(ES), token: await tokenFor(ES, ana) }),
    );
    expect(JSON.stringify(again)).not.toContain("chargeback");

    const events = await db().auditEvent.findMany({ where: { proposalId: proposal.id } });
    expect(events.some((e) => e.action === "proposal:reject" && e.outcome === "ok")).toBe(true);
    for (const e of events) expect(JSON.stringify(e)).not.toContain("chargeback");
    const rejectEvent = events.find((e) => e.action === "proposal:reject")!;
    expect(rejectEvent.data).toMatchObject({ internalNote: true });

    const detail = await getProposal(await actorFor(staffOf(ES, "reviewer", 1).email), proposal.id);
    expect(detail.rejection).toMatchObject({ by: lucia.name, customerMessage: MESSAGE, internalNote: NOTE });
    expect(detail.rejection?.at).toBe(row.decidedAt!.toISOString());
  });

  it("still accepts `reason` as the customer message; a note is optional; a missing message is invalid_arguments", async () => {
    const lucia = await actorFor(staffOf(ES, "reviewer", 0).email);
    const { proposal } = await preparedForFreshOrder(4_322, { prefix: "R" });
    await expect(
      rejectProposal(lucia, { proposalId: proposal.id, hash: proposal.hash, internalNote: NOTE }),
    ).rejects.toMatchObject({
      code: "invalid_arguments",
    });
    await expect(
      rejectProposal(lucia, { proposalId: proposal.id, hash: proposal.hash, customerMessage: "no" }),
    ).rejects.toMatchObject({
      code: "invalid_arguments",
    });
    await rejectProposal(lucia, { proposalId: proposal.id, hash: proposal.hash, reason: MESSAGE });
    const row = await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } });
    expect(row).toMatchObject({ rejectionReason: MESSAGE, rejectionInternalNote: null });
  });
});
