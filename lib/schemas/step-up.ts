import { z } from "zod";

// One rule for re-confirming it is you (docs/admin-api.md "Step-up"): every body that changes an admin setting,
// a credential or one's own passkeys may carry `stepUpPassword`, declared here once, never refused as an unknown
// field; the use cases that change who can act, what is trusted or where signed data goes ask for it
// (requireStepUp) when the sign-in is older than the tenant's step-up window.

export const PASSWORD_MAX = 1024;

/** The current password, when the sign-in is older than the step-up window. */
export const stepUpPassword = z.string().min(1).max(PASSWORD_MAX).optional();

/** Spread into a strict input object: `z.strictObject({ …, ...stepUp })`. */
export const stepUp = { stepUpPassword } as const;
