import "server-only";
import { fingerprintWithKey, type Fingerprinter } from "@/lib/domain/redaction";
import { previousSecret, secret } from "@/lib/server/env";

/**
 * The keyed fingerprint ("fp:<16 hex>", HMAC-SHA256 with AUDIT_HMAC_KEY) the audit trail stores instead
 * of personal data. An auditor searching "every event about ana@example.com" computes
 * `auditFingerprint("ana@example.com")` and looks for it in AuditEvent.fingerprints (or endUser).
 * In SQL, `"fingerprints" @> ARRAY[$1]::text[]` uses the GIN index; Prisma's `{ fingerprints: { has } }`
 * (`= ANY(…)`) is correct but scans.
 */
export const auditFingerprint: Fingerprinter = (value: string) => fingerprintWithKey(secret("AUDIT_HMAC_KEY"), value);

/**
 * Every fingerprint a value may have been stored under: the current key's and, during a rotation overlap,
 * AUDIT_HMAC_KEY_PREVIOUS's (events written before the rotation keep their old fingerprints: the audit trail is
 * append-only). Searches match any of them; writers use `auditFingerprint` only.
 */
export function auditFingerprintsForSearch(value: string): string[] {
  const previous = previousSecret("AUDIT_HMAC_KEY");
  return previous ? [auditFingerprint(value), fingerprintWithKey(previous, value)] : [auditFingerprint(value)];
}
