// Tenant policy as versioned data (docs/design.md "Policy versions"): the values, and which way each change
// goes. A change that loosens any control needs a second admin; one that only tightens applies at once.
// Pure: no I/O.

export type PolicyValues = {
  /** Minutes a proposal stays approvable. Longer = looser. */
  approvalExpiryMinutes: number;
  /** Minutes a sign-in counts as fresh for approvals and admin changes. Longer = looser. */
  stepUpMinutes: number;
  /**
   * Minutes an open session (its sign-in or last step-up) approves a proposal without asking again for the
   * password or a passkey; the step-up window caps it. 0 = every approval asks. Longer = looser.
   */
  approvalSessionMinutes: number;
  /** At or above this amount (minor units) two reviewers are needed; null = never. Higher/null = looser. */
  dualApprovalThresholdMinor: number | null;
  /** Cap on what one reviewer approves per day (minor units); null = no cap. Higher/null = looser. */
  reviewerDailyApprovalLimitMinor: number | null;
  /** An approval older than this is not executed. Longer = looser. */
  maxApprovalAgeMinutes: number;
  /** Audit events are kept this many days. Shorter = looser (evidence is lost sooner). */
  retentionDays: number;
  /** Agent budgets per trace. Higher = looser. */
  maxCallsPerTrace: number;
  maxRepeatsPerTrace: number;
  maxErrorsPerTrace: number;
  /** After a rejection, re-preparing the same order answers `rejected` for this long. Shorter = looser. */
  rejectionCooldownMinutes: number;
  /** Agent budgets per key and per end user, per fixed window of `windowSeconds`. Higher = looser. */
  maxCallsPerKeyPerWindow: number;
  maxCallsPerEndUserPerWindow: number;
  /** The budget window: the same maximum over a shorter window allows more calls. Shorter = looser. */
  windowSeconds: number;
  /** End-user tokens older than this (from `iat`) are refused. Longer = looser. */
  endUserTokenMaxAgeSeconds: number;
};

export const policyFields = [
  "approvalExpiryMinutes",
  "stepUpMinutes",
  "approvalSessionMinutes",
  "dualApprovalThresholdMinor",
  "reviewerDailyApprovalLimitMinor",
  "maxApprovalAgeMinutes",
  "retentionDays",
  "maxCallsPerTrace",
  "maxRepeatsPerTrace",
  "maxErrorsPerTrace",
  "rejectionCooldownMinutes",
  "maxCallsPerKeyPerWindow",
  "maxCallsPerEndUserPerWindow",
  "windowSeconds",
  "endUserTokenMaxAgeSeconds",
] as const satisfies readonly (keyof PolicyValues)[];
export type PolicyField = (typeof policyFields)[number];

/** Which direction of a value is the looser one: "higher" (null = unlimited = loosest) or "lower". */
const looserWhen: Record<PolicyField, "higher" | "lower"> = {
  approvalExpiryMinutes: "higher",
  stepUpMinutes: "higher",
  approvalSessionMinutes: "higher",
  dualApprovalThresholdMinor: "higher",
  reviewerDailyApprovalLimitMinor: "higher",
  maxApprovalAgeMinutes: "higher",
  retentionDays: "lower",
  maxCallsPerTrace: "higher",
  maxRepeatsPerTrace: "higher",
  maxErrorsPerTrace: "higher",
  rejectionCooldownMinutes: "lower",
  maxCallsPerKeyPerWindow: "higher",
  maxCallsPerEndUserPerWindow: "higher",
  windowSeconds: "lower",
  endUserTokenMaxAgeSeconds: "higher",
};

export type PolicyChange = {
  field: PolicyField;
  before: number | null;
  after: number | null;
  direction: "looser" | "tighter";
};

/** null stands for "no limit": above every number. */
const rank = (v: number | null) => (v === null ? Number.POSITIVE_INFINITY : v);

/** Every field that differs, and whether the change loosens or tightens that control. */
export function diffPolicy(before: PolicyValues, after: PolicyValues): PolicyChange[] {
  const changes: PolicyChange[] = [];
  for (const field of policyFields) {
    const a = before[field];
    const b = after[field];
    if (a === b) continue;
    const up = rank(b) > rank(a);
    const looser = looserWhen[field] === "higher" ? up : !up;
    changes.push({ field, before: a, after: b, direction: looser ? "looser" : "tighter" });
  }
  return changes;
}

/** A change set needs a second admin when any one of its changes loosens a control. */
export function needsSecondAdmin(changes: readonly PolicyChange[]): boolean {
  return changes.some((c) => c.direction === "looser");
}

/**
 * The values of a stored version (PolicyVersion.values, immutable): one stored before a field existed ran
 * with that field's then-behaviour — approvalSessionMinutes 1440, the step-up window alone deciding.
 */
export function storedPolicyValues(stored: unknown): Record<string, unknown> {
  return { approvalSessionMinutes: 1440, ...(stored as Record<string, unknown>) };
}

/** The minutes an open session approves for without a fresh password or passkey (0: every approval asks). */
export const approvalSessionWindow = (t: { stepUpMinutes: number; approvalSessionMinutes: number }) =>
  Math.min(t.stepUpMinutes, t.approvalSessionMinutes);

/**
 * What a new tenant starts with (npm run tenant:create, docs/operations.md "Safe defaults"), in major units of
 * its currency: two reviewers at or above 500, at most 2,000 approved per reviewer per day, and every
 * approval confirmed with the password or a passkey. Loosening any of them later needs a second admin.
 */
export const NEW_TENANT_DEFAULTS = {
  dualApprovalThresholdMajor: 500,
  reviewerDailyApprovalLimitMajor: 2_000,
  approvalSessionMinutes: 0,
} as const;

/** A control that is off (or weaker than the new-tenant default): the admin page warns while it is. */
export type PolicyWarning = "no_four_eyes" | "no_daily_cap" | "session_approves";
export function policyWarnings(v: PolicyValues): PolicyWarning[] {
  const warnings: PolicyWarning[] = [];
  if (v.dualApprovalThresholdMinor === null) warnings.push("no_four_eyes");
  if (v.reviewerDailyApprovalLimitMinor === null) warnings.push("no_daily_cap");
  if (approvalSessionWindow(v) > 0) warnings.push("session_approves");
  return warnings;
}
