// Staff comments on a proposal (docs/design.md "Comments") through the real database: staff of the proposal's
// tenant only, validated and capped, scrubbed of personal data before they are stored (the audit log's
// redaction), audited in the same transaction, and shown in the proposal's history in order with author and time.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { addProposalComment } from "@/lib/server/proposals/add-proposal-comment";
import { getProposal } from "@/lib/server/proposals/get-proposal";
import { auditFingerprint } from "@/lib/server/audit/fingerprint";
import { COMMENT_MAX } from "@/lib/schemas/proposals";
import { actorFor, staffOf } from "../support/actors";
import { refusal } from "../support/refusal";
import { preparedForFreshOrder } from "./proposal-support";
import { ES, US, ana } from "./gateway-support";

const EMAIL = "maria.lopez@correo.example";
const PHONE = "+34 600 123 456";
const commentsOf = (proposalId: string) =>
  db().proposalComment.findMany({ where: { proposalId }, orderBy: { createdAt: "asc" } });

describe("addProposalComment", () => {
  it("stores the body redacted (e-mail, phone, the customer's own name), audits it, and shows it in order with author and time", async () => {
    const lucia = await actorFor(staffOf(ES, "reviewer", 0).email);
    const ops = await actorFor(staffOf(ES, "ops").email);
    const { proposal } = await preparedForFreshOrder(2_468, { prefix: "K" });
    const customer = await db().customer.findFirstOrThrow({ where: { id: ana } });
    const first = await addProposalComment(lucia, {
      proposalId: proposal.id,
      body: `  Called ${customer.name} on ${PHONE}; she will mail ${EMAIL} the receipt.  `,
    });
    const second = await addProposalComment(ops, {
      proposalId: proposal.id,
      body: "Provider shows the charge as settled.",
    });

    const stored = await commentsOf(proposal.id);
    expect(stored.map((c) => c.id)).toEqual([first.id, second.id]);
    for (const clear of [EMAIL, PHONE, "600 123 456", customer.name]) expect(stored[0]!.body).not.toContain(clear);
    expect(stored[0]!.body).toContain(auditFingerprint(EMAIL));
    expect(stored[0]!.body).toMatch(/^Called \S+ on \S+; she will mail \S+ the receipt\.$/); // trimmed, still readable
    expect(first.body).toBe(stored[0]!.body); // what the author sees is what was stored

    const detail = await getProposal(lucia, proposal.id);
    expect(detail.comments).toEqual([
      { id: first.id, author: lucia.name, body: stored[0]!.body, createdAt: stored[0]!.createdAt.toISOString() },
      {
        id: second.id,
        author: ops.name,
        body: "Provider shows the charge as settled.",
        createdAt: stored[1]!.createdAt.toISOString(),
      },
    ]);
    expect(detail.viewer.canComment).toBe(true);

    const events = await db().auditEvent.findMany({
      where: { proposalId: proposal.id, action: "proposal:comment" },
      orderBy: { occurredAt: "asc" },
    });
    expect(events.map((e) => [e.actorId, e.outcome, e.proposalHash])).toEqual([
      [lucia.userId, "ok", proposal.hash],
      [ops.userId, "ok", proposal.hash],
    ]);
    expect(events[0]!.data).toMatchObject({ commentId: first.id });
    expect(JSON.stringify(events[0]!.data)).not.toContain(EMAIL);
  });

  it("refuses another tenant's proposal as not found, and people without the permission; nothing is stored", async () => {
    const { proposal } = await preparedForFreshOrder(2_469, { prefix: "K" });
    const usReviewer = await actorFor(staffOf(US, "reviewer").email);
    expect(
      await refusal(addProposalComment(usReviewer, { proposalId: proposal.id, body: "Looks fine." })),
    ).toMatchObject({ code: "not_found" });
    const usAdmin = await actorFor(staffOf(US, "admin").email);
    expect(await refusal(addProposalComment(usAdmin, { proposalId: proposal.id, body: "Looks fine." }))).toMatchObject({
      code: "not_found",
    });
    const auditor = await actorFor(staffOf(ES, "auditor").email);
    expect(await refusal(addProposalComment(auditor, { proposalId: proposal.id, body: "Looks fine." }))).toMatchObject({
      code: "permission_denied",
    });
    expect(await refusal(addProposalComment(usReviewer, { proposalId: "not-a-uuid", body: "x" }))).toMatchObject({
      code: "invalid_arguments",
    });
    expect(await commentsOf(proposal.id)).toEqual([]);
    // Admins of the proposal's own tenant may comment (staff, not only reviewers).
    const admin = await actorFor(staffOf(ES, "admin").email);
    await expect(
      addProposalComment(admin, { proposalId: proposal.id, body: "Checked the order." }),
    ).resolves.toMatchObject({ author: admin.name });
  });

  it(`takes 1 to ${COMMENT_MAX} characters after trimming, no control characters, nothing else`, async () => {
    const lucia = await actorFor(staffOf(ES, "reviewer", 0).email);
    const { proposal } = await preparedForFreshOrder(2_470, { prefix: "K" });
    const bad = [
      { proposalId: proposal.id, body: "   " },
      { proposalId: proposal.id, body: "a".repeat(COMMENT_MAX + 1) },
      { proposalId: proposal.id, body: "bell\u0007" },
      { proposalId: proposal.id, body: "ok", authorId: lucia.userId },
      { proposalId: proposal.id },
    ];
    for (const raw of bad)
      expect(await refusal(addProposalComment(lucia, raw))).toMatchObject({ code: "invalid_arguments" });
    expect(await commentsOf(proposal.id)).toEqual([]);
    // Exactly at the cap (and with line breaks, which are allowed): stored whole.
    const atCap = `line one\n${"lorem ipsum dolor ".repeat(200)}`.slice(0, COMMENT_MAX - 1) + ".";
    expect(atCap).toHaveLength(COMMENT_MAX);
    await addProposalComment(lucia, { proposalId: proposal.id, body: atCap });
    expect((await commentsOf(proposal.id))[0]!.body).toBe(atCap);
  });
});
