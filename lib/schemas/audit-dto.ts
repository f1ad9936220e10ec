// What the audit search endpoint answers (DTO), validated by the client fetcher (lib/queries/audit.ts).
// Mirrors lib/server/audit/audit-event-view.ts (the logged event with its time as ISO text; leafIndex null
// while the sequencer has not integrated it yet).
import { z } from "zod";

export const auditEventViewDto = z.object({
  id: z.string(),
  leafIndex: z.number().int().nullable(),
  occurredAt: z.string(),
  traceId: z.string(),
  actorType: z.string(),
  actorId: z.string().nullable(),
  /** The actor's name when the id names a staff member or agent key of the viewer's tenant. */
  actorName: z.string().nullable().optional(),
  authMethod: z.string().nullable(),
  action: z.string(),
  outcome: z.string(),
  proposalId: z.string().nullable(),
  proposalHash: z.string().nullable(),
  model: z.string().nullable(),
  promptVersion: z.string().nullable(),
  channel: z.string().nullable(),
  endUser: z.string().nullable(),
  data: z.unknown(),
  fingerprints: z.array(z.string()),
  hash: z.string(),
});
export type AuditEventViewDto = z.infer<typeof auditEventViewDto>;

export const auditSearchPageDto = z.object({ events: z.array(auditEventViewDto), nextCursor: z.string().nullable() });
export type AuditSearchPageDto = z.infer<typeof auditSearchPageDto>;
