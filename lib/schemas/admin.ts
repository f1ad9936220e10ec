import { z } from "zod";
import { int4, storable, storedDateTime, storedText } from "./stored";
import { roles } from "@/lib/domain/permissions";
import { isOfferedToolName, toolNames } from "@/lib/schemas/tools";
import { PASSWORD_MAX, stepUp } from "./step-up";

// A tool of a kind still in preview is not offered (lib/actions/kind.ts `preview`): refused like an unknown one.
const toolName = z.string().refine(isOfferedToolName, "Unknown tool.");

// Input of every admin action: shared by the JSON routes under /api/admin/… and the admin pages
// (which call those routes). The use cases parse again; the routes only pass the body through.

export const PASSWORD_MIN = 12;
export { PASSWORD_MAX };

const roleList = z
  .array(z.enum(roles))
  .min(1, "Pick at least one role.")
  .max(roles.length)
  .transform((r) => [...new Set(r)].sort());

export const inviteStaffInput = z.strictObject({
  email: z.string().trim().toLowerCase().max(320).pipe(z.email()),
  name: storedText(120),
  roles: roleList,
  ...stepUp,
});
export type InviteStaffInput = z.infer<typeof inviteStaffInput>;

export const updateStaffInput = z
  .strictObject({
    roles: roleList.optional(),
    disabled: z.boolean().optional(),
    /** Clears a lockout after repeated wrong passwords. */
    unlock: z.literal(true).optional(),
    /** Ends every session of the person (sign out everywhere). */
    signOut: z.literal(true).optional(),
    ...stepUp,
  })
  .refine((v) => v.roles !== undefined || v.disabled !== undefined || v.unlock || v.signOut, "Nothing to change.");
export type UpdateStaffInput = z.infer<typeof updateStaffInput>;

export const completeSetupInput = z.strictObject({
  token: z.string().regex(/^[A-Za-z0-9_-]{32,128}$/),
  password: z.string().min(PASSWORD_MIN, `At least ${PASSWORD_MIN} characters.`).max(PASSWORD_MAX),
});
export type CompleteSetupInput = z.infer<typeof completeSetupInput>;

const slug = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_]{1,39}$/, "Lower-case letters, digits and _; 2 to 40 characters, starting with a letter.");

export const createChannelInput = z.strictObject({
  slug,
  name: storedText(80),
  allowedTools: z
    .array(toolName)
    .min(1)
    .transform((t) => toolNames.filter((n) => t.includes(n))),
  ...stepUp,
});
export type CreateChannelInput = z.infer<typeof createChannelInput>;

export const MAX_OVERLAP_MINUTES = 7 * 24 * 60;
export const rotateChannelSecretInput = z.strictObject({
  /** How long end-user tokens signed with the old secret keep verifying (0 = stop at once). */
  overlapMinutes: z.number().int().min(0).max(MAX_OVERLAP_MINUTES).default(60),
  ...stepUp,
});
export type RotateChannelSecretInput = z.infer<typeof rotateChannelSecretInput>;

export const issueAgentKeyInput = z.strictObject({
  channel: slug,
  label: storedText(80),
  /** Defaults to every tool of the channel; never more than the channel allows. */
  tools: z.array(toolName).min(1).optional(),
  expiresAt: storedDateTime().optional(),
  ...stepUp,
});
export type IssueAgentKeyInput = z.infer<typeof issueAgentKeyInput>;

export const listStaffInput = z.object({ q: storable(z.string().trim().max(100)).optional() });

/** A staff member's own passkey: rename, or remove (with step-up). */
export const renamePasskeyInput = z.strictObject({ name: storedText(64), ...stepUp });
export const removePasskeyInput = z.strictObject({ ...stepUp });

/** A whole number from `min` to `max`. */
const int = (min: number, max: number) => z.number().int().min(min).max(max);
// Minor-unit limits are int4 columns of the tenant (stored.ts).
const minorOrNull = (min: number) => int4(min).nullable();
const MINUTES_PER_DAY = 24 * 60;
const SECONDS_PER_DAY = 24 * 3600;
/** Every policy value with its allowed range (lib/domain/policy.ts says which way loosens). */
export const policyValuesSchema = z.strictObject({
  approvalExpiryMinutes: int(1, 7 * MINUTES_PER_DAY),
  stepUpMinutes: int(0, MINUTES_PER_DAY),
  approvalSessionMinutes: int(0, MINUTES_PER_DAY),
  dualApprovalThresholdMinor: minorOrNull(0),
  reviewerDailyApprovalLimitMinor: minorOrNull(1),
  maxApprovalAgeMinutes: int(1, 30 * MINUTES_PER_DAY),
  retentionDays: int(1, 36_500),
  maxCallsPerTrace: int(1, 100_000),
  maxRepeatsPerTrace: int(1, 100_000),
  maxErrorsPerTrace: int(1, 100_000),
  rejectionCooldownMinutes: int(0, 30 * MINUTES_PER_DAY),
  maxCallsPerKeyPerWindow: int(1, 1_000_000),
  maxCallsPerEndUserPerWindow: int(1, 1_000_000),
  windowSeconds: int(1, SECONDS_PER_DAY),
  endUserTokenMaxAgeSeconds: int(1, 30 * SECONDS_PER_DAY),
});
/** POST /api/admin/policy: the values to change (the others stay as in the active version). */
export const proposePolicyInput = z.strictObject({
  values: policyValuesSchema.partial(),
  ...stepUp,
});
export type ProposePolicyInput = z.infer<typeof proposePolicyInput>;
export const decidePolicyInput = z.strictObject({ ...stepUp });

/** PUT /api/admin/channels/{id}/decision-webhook. A new secret comes with the first URL, or on `rotateSecret`. */
export const setDecisionWebhookInput = z.strictObject({
  url: storedText(2048),
  /** Issue a new secret; the current one keeps signing beside it for `overlapMinutes` (0 = stop at once). */
  rotateSecret: z.boolean().default(false),
  overlapMinutes: z.number().int().min(0).max(MAX_OVERLAP_MINUTES).default(1440),
  ...stepUp,
});
export type SetDecisionWebhookInput = z.infer<typeof setDecisionWebhookInput>;

/** POST /api/admin/witnesses: a witness of the tenant's audit log (its name is its vkey's name). */
export const addWitnessInput = z.strictObject({
  name: storedText(200),
  /** Its cosignature/v1 vkey, as `npm run witness` prints it first: name+key id+base64(0x04 ‖ key). */
  vkey: storedText(400),
  /** URL prefix of its tlog-witness API (the log POSTs <url>/add-checkpoint). */
  url: storedText(2048),
  ...stepUp,
});
export type AddWitnessInput = z.infer<typeof addWitnessInput>;
/** PUT /api/admin/witness-policy: how many of the tenant's witnesses must cosign a checkpoint. */
export const witnessPolicyInput = z.strictObject({ quorum: z.number().int().min(0).max(100), ...stepUp });
export type WitnessPolicyInput = z.infer<typeof witnessPolicyInput>;

/**
 * PUT /api/admin/confirmation-policy: the kinds whose proposals also need the customer's confirmation (names checked
 * against the registered kinds by the use case), as a set: order and repeats do not matter.
 */
export const confirmationPolicyInput = z.strictObject({
  kinds: z
    .array(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, "a kind name"))
    .max(50)
    .transform((k) => [...new Set(k)].sort()),
  ...stepUp,
});
