// Reviewer text is free text: the customer message (rejectionReason, read by the agent) and the staff-only
// internal note are scrubbed of personal data before they are stored, like a support ticket's summary.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { rejectProposal } from "@/lib/server/proposals/reject-proposal";
import { auditFingerprint } from "@/lib/server/audit/fingerprint";
import { actorFor, staffOf } from "../support/actors";
import { ES, ana, anthropicCall, headersFor, send, tokenFor, webKey } from "./gateway-support";
import { preparedForFreshOrder } from "./proposal-support";

const EMAIL = "maria.lopez@correo.example";
const CARD = "4000 0566 5566 5556";
const IBAN = "DE89370400440532013000";
const PHONE = "+34 600 123 456";

describe("rejection text is redacted at rest", () => {
  it("e-mail, card number, IBAN and phone in the customer message and the note are stored masked; the agent reads the masked message", async () => {
    const lucia = await actorFor(staffOf(ES, "reviewer", 0).email);
    const { proposal } = await preparedForFreshOrder(4_323, { prefix: "R" });
    const message = `Write to ${EMAIL} or call ${PHONE}; we cannot refund card ${CARD} to IBAN ${IBAN}.`;
    const note = `Customer said: email ${EMAIL}, phone ${PHONE}, card ${CARD}, IBAN ${IBAN}.`;
    await rejectProposal(lucia, {
      proposalId: proposal.id,
      hash: proposal.hash,
      customerMessage: message,
      internalNote: note,
    });

    const row = await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } });
    for (const stored of [row.rejectionReason!, row.rejectionInternalNote!]) {
      for (const clear of [EMAIL, CARD, CARD.replace(/ /g, ""), IBAN, PHONE, "600 123 456"])
        expect(stored).not.toContain(clear);
      // Masked with the audit fingerprint: an auditor can still find "everything about this e-mail".
      expect(stored).toContain(auditFingerprint(EMAIL));
      expect(stored).toContain(auditFingerprint(IBAN));
    }
    // The words around the masked parts stay: still a readable message.
    expect(row.rejectionReason).toMatch(/^Write to \S+ or call \S+; we cannot refund card \S+ to IBAN \S+\.$/);
    expect(row.rejectionInternalNote).toMatch(/^Customer said: email \S+, phone \S+, card \S+, IBAN \S+\.$/);

    const answer = await send(
      anthropicCall("get_refund_status", { proposal_id: proposal.id }),
      headersFor({ key: webKey(ES), token: await tokenFor(ES, ana) }),
    );
    expect(answer.content.code).toBe("rejected");
    const seenByAgent = JSON.stringify(answer);
    expect(seenByAgent).toContain(JSON.stringify(row.rejectionReason).slice(1, -1));
    for (const clear of [EMAIL, CARD, IBAN, PHONE]) expect(seenByAgent).not.toContain(clear);
    expect(seenByAgent).not.toContain("Customer said");
  });

  it("the proposal's own customer's name and e-mail are masked too; text without personal data is kept as typed", async () => {
    const lucia = await actorFor(staffOf(ES, "reviewer", 0).email);
    const { proposal } = await preparedForFreshOrder(4_324, { prefix: "R" });
    const customer = await db().customer.findFirstOrThrow({
      where: { orders: { some: { proposals: { some: { id: proposal.id } } } } },
    });
    await rejectProposal(lucia, {
      proposalId: proposal.id,
      hash: proposal.hash,
      customerMessage: `Dear ${customer.name}, this order is outside the refund window.`,
      internalNote: "Order 1234 bought in the final-sale promotion.",
    });
    const row = await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } });
    expect(row.rejectionReason).not.toContain(customer.name);
    expect(row.rejectionReason).toMatch(/^Dear \S+, this order is outside the refund window\.$/);
    expect(row.rejectionInternalNote).toBe("Order 1234 bought in the final-sale promotion.");
  });
});
