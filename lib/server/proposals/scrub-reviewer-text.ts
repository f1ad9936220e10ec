import "server-only";
import { scrubText } from "@/lib/domain/redaction";
import type { Tx } from "@/lib/server/db/client";
import { auditFingerprint } from "@/lib/server/audit/fingerprint";

/**
 * Staff free text about a proposal (a rejection's message and note, a comment) is scrubbed like a support
 * ticket's summary before it is stored: e-mail addresses, card numbers, IBANs, phone numbers and the customer's
 * own name and e-mail become audit fingerprints (lib/domain/redaction.ts, the audit log's redaction). Returns
 * the scrubber for one customer of the tenant.
 */
export async function reviewerTextScrubber(
  tx: Tx,
  tenantId: string,
  /** The customer the proposal concerns (null when its kind concerns none: then only the patterns are scrubbed). */
  customerId: string | null,
): Promise<(text: string) => string> {
  const customer =
    customerId === null
      ? null
      : await tx.customer.findFirst({ where: { id: customerId, tenantId }, select: { name: true, email: true } });
  const known = customer ? [customer.name, customer.email] : [];
  return (text) => scrubText(text, auditFingerprint, new Set(), known);
}
