import "server-only";
// The chain recipe lives in lib/domain/audit-chain.ts (pure, so the offline evidence verifier uses the same
// code); record-event.ts computes the content hash in Node and the link hash in PostgreSQL.
export { auditContentHash, auditLinkHash, auditEventHash, type AuditContent } from "@/lib/domain/audit-chain";
