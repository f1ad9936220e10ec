// The tenant's bulk-message policy (send_bulk_message, docs/action-kinds.md "The bulk message"; docs/admin-api.md
// "Segments"): defined once for `PUT /api/admin/segments/policy` and its form. Every value bounded as the database's
// BulkMessagePolicy_values_check bounds it, and a little tighter where no shop needs more.
import { z } from "zod";
import type { BulkPolicyControls } from "@/lib/domain/admin-governance";
import { canonicalTimeZone } from "@/lib/domain/local-time";
import { stepUp } from "./step-up";

/** The largest audience one proposal may address (lib/actions/bulk-message/audience.ts MAX_AUDIENCE). */
export const BULK_POLICY_MAX_RECIPIENTS = 10_000;
/** The largest daily recipients cap an admin may set (null: no cap). */
export const BULK_POLICY_MAX_DAILY_CAP = 1_000_000;

const zone = z
  .string()
  .trim()
  .max(64)
  .transform((v, ctx) => {
    const canonical = canonicalTimeZone(v);
    if (canonical) return canonical;
    ctx.addIssue({ code: "custom", message: "Not an IANA time zone (for example Europe/Madrid)." });
    return z.NEVER;
  });

/** The values (each optional: a PUT changes what it names, over the current ones). */
export const bulkPolicyValues = z.strictObject({
  recipientsThreshold: z.int().min(1).max(BULK_POLICY_MAX_RECIPIENTS).optional(),
  dailyRecipientsCap: z.int().min(1).max(BULK_POLICY_MAX_DAILY_CAP).nullable().optional(),
  tolerancePercent: z.int().min(0).max(100).optional(),
  windowStartHour: z.int().min(0).max(23).optional(),
  windowEndHour: z.int().min(1).max(24).optional(),
  /** The send window's zone; null: the tenant's own. */
  timeZone: zone.nullable().optional(),
});

/** `PUT /api/admin/segments/policy`: at least one value, and the step-up password when the sign-in is stale. */
export const setBulkPolicyInput = bulkPolicyValues
  .extend(stepUp)
  .refine((v) => Object.keys(v).some((k) => k !== "stepUpPassword"), { message: "name at least one value" });
export type SetBulkPolicyInput = z.infer<typeof setBulkPolicyInput>;

/** The policy as the admin API answers it (`timeZone`: the zone in force; `ownTimeZone`: whether it is its own). */
export type BulkPolicyView = BulkPolicyControls & { ownTimeZone: boolean; updatedAt: string | null };
