// Who must confirm a proposal (docs/action-kinds.md, "Who confirms"; DESIGN "Action kinds", policy): the kind's
// floor, raised — never lowered — by the proposal's own params (an address change to another country also needs a
// reviewer) and by the tenant's policy (a tenant may ask the customer to confirm a kind's proposals too). Pure: the
// answer is decided at prepare and hashed (hash v6 / v7), so nobody can change it afterwards without breaking the hash.
import type { Confirmation } from "./proposal-hash";

export type { Confirmation } from "./proposal-hash";

/** What a kind declares (KindBehaviour.confirmation). */
export type ConfirmationPolicy = {
  floor: Confirmation;
  /** Whether this proposal's hashed params also need a reviewer's approval (raises `customer` to `both`). */
  reviewersToo?: (params: unknown) => boolean;
};

/** The stricter of two: each party either one names must confirm. */
export function raiseConfirmation(a: Confirmation, b: Confirmation): Confirmation {
  return a === b ? a : "both";
}

/**
 * Who confirms one proposal: the kind's floor (reviewers when the kind declares nothing), raised by its params and
 * by the tenant's list of kinds that also need the customer.
 */
export function confirmationFor(
  policy: ConfirmationPolicy | undefined,
  params: unknown,
  tenant: { customerConfirmationKinds: readonly string[] },
  kind: string,
): Confirmation {
  let c: Confirmation = policy?.floor ?? "reviewers";
  if (policy?.reviewersToo?.(params)) c = raiseConfirmation(c, "reviewers");
  if (tenant.customerConfirmationKinds.includes(kind)) c = raiseConfirmation(c, "customer");
  return c;
}

/** Whether the customer's confirmation is needed. */
export const needsCustomer = (c: string) => c === "customer" || c === "both";
/** Whether reviewers' approvals are needed (as many as the proposal's requiredApprovals). */
export const needsReviewers = (c: string) => c !== "customer";
