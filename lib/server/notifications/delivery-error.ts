import "server-only";
import { scrubText, truncateText } from "@/lib/domain/redaction";
import { auditFingerprint } from "@/lib/server/audit/fingerprint";

/**
 * An outbox error as it is stored and shown in Admin: personal data and credentials replaced (an SMTP
 * server's answer can quote an address), at most 200 characters. Applied when the worker stores it and again
 * when Admin lists it (rows written before this rule).
 */
export const shownDeliveryError = (error: string | null): string | null =>
  error ? truncateText(scrubText(error, auditFingerprint), 200) : null;
