// Support tickets keep no credentials or personal data in clear: the summary an agent sends is scrubbed
// like audit text (lib/domain/redaction.ts) before it is stored.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { auditFingerprint } from "@/lib/server/audit/fingerprint";
import { ana, anthropicCall, ES, freshTrace, headersFor, send, tokenFor } from "./gateway-support";

const EMAIL = "someone.else@example.org";
const CARD = "4242 4242 4242 4242";
const IBAN = "ES9121000418450200051332";
const BEARER = "Bearer sk_live_abcdefghijklmnopqrstuvwxyz012345";
const PHONE = "+34 612 345 678";

async function ticket(summary: string, token: string | null) {
  const answer = await send(
    anthropicCall("create_support_ticket", { category: "billing", priority: "low", summary }),
    headersFor({ token, trace: freshTrace() }),
  );
  expect(answer.content.code).toBe("ok");
  const id = answer.content.result?.ticket_id as string;
  return db().supportTicket.findUniqueOrThrow({ where: { id } });
}

describe("support ticket text is scrubbed like audit text", () => {
  it("stores fingerprints and [secret] instead of e-mail, card, IBAN, phone and credentials", async () => {
    const summary = `Refund to ${EMAIL}, card ${CARD}, IBAN ${IBAN}, call ${PHONE}; my key is ${BEARER}`;
    const stored = await ticket(summary, await tokenFor(ES, ana));
    for (const clear of [EMAIL, CARD, IBAN, "sk_live_abcdefghijklmnopqrstuvwxyz012345", "612 345 678"])
      expect(stored.summary).not.toContain(clear);
    expect(stored.summary).toContain(auditFingerprint(EMAIL));
    expect(stored.summary).toContain(auditFingerprint(CARD));
    expect(stored.summary).toContain("[secret]");
    expect(stored.summary).toMatch(/^Refund to .+, card .+, IBAN .+; my key is Bearer \[secret\]$/);
  });

  it("fingerprints the customer's own name and e-mail from the verified token", async () => {
    const customer = await db().customer.findFirstOrThrow({ where: { id: ana } });
    const stored = await ticket(
      `This is ${customer.name} (${customer.email}) asking about my order`,
      await tokenFor(ES, ana),
    );
    expect(stored.summary).not.toContain(customer.name);
    expect(stored.summary).not.toContain(customer.email);
    expect(stored.summary).toContain(auditFingerprint(customer.name));
    expect(stored.summary).toContain("asking about my order");
  });

  it("leaves ordinary text alone", async () => {
    const stored = await ticket("The parcel arrived damaged, order 1042 needs a look", null);
    expect(stored.summary).toBe("The parcel arrived damaged, order 1042 needs a look");
  });
});
