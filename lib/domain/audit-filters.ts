/**
 * The audit search's filters, in the order the form shows them: one list for the server schema
 * (lib/schemas/audit.ts) and the browser's URL state (app/(dashboard)/audit/_components/audit-params.ts).
 * It lives apart from the zod schema so the audit page's own script does not pull zod in.
 */
export const auditFilterKeys = [
  "traceId",
  "from",
  "to",
  "actor",
  "action",
  "outcome",
  "proposalId",
  "subject",
] as const;
