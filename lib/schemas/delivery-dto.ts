// What every outbox delivery shows of its attempts in Admin: a Slack message or e-mail (notifications.ts) and a
// webhook delivery (webhook-delivery-dto.ts) are retried the same way by the worker.
import { z } from "zod";

export const deliveryAttemptsShape = {
  /** The proposal it is about, if any. */
  proposalId: z.uuid().nullable(),
  attempts: z.int().min(0),
  /** The last error (or skip reason), with personal data and credentials replaced. */
  lastError: z.string().nullable(),
  createdAt: z.iso.datetime(),
  /** When the worker tries a pending delivery next (its job's run_at); null once it is done with it. */
  nextAttemptAt: z.iso.datetime().nullable(),
};
