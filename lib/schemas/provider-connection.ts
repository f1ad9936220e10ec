import { z } from "zod";
import { stepUp } from "./step-up";

// The tenant's own payment provider connection (Admin → Payment provider, PUT /api/admin/provider-connection).

/** Stripe's secret (`sk_`) or restricted (`rk_`) keys, test or live. */
export const providerApiKey = z
  .string()
  .trim()
  .regex(/^(?:rk|sk)_(?:test|live)_[A-Za-z0-9_]{8,240}$/, {
    error: "a Stripe restricted key (rk_live_… / rk_test_…) or secret key (sk_…)",
  });

/** A webhook endpoint's signing secret as Stripe shows it. */
export const providerWebhookSecret = z
  .string()
  .trim()
  .regex(/^whsec_[A-Za-z0-9+/=_-]{16,240}$/, { error: "the endpoint's signing secret (whsec_…)" });

export const setProviderConnectionInput = z.strictObject({
  apiKey: providerApiKey,
  webhookSecret: providerWebhookSecret,
  ...stepUp,
});
export type SetProviderConnectionInput = z.infer<typeof setProviderConnectionInput>;

export const removeProviderConnectionInput = z.strictObject({ ...stepUp });

/** The provider events the per-tenant webhook acts on (docs/systems-of-record.md "Refunds made elsewhere"). */
export const providerWebhookEvents = [
  "refund.created",
  "refund.updated",
  "refund.failed",
  "charge.refunded",
  "charge.dispute.created",
] as const;

/** What Admin shows of the connection (never the key). */
export type ProviderConnectionView = {
  /** "tenant": its own key is stored; "default": the process-wide PAYMENT_PROVIDER_* settings are used. */
  source: "tenant" | "default";
  /** `rk_test_…abcd`: never the key. */
  apiKeyHint: string | null;
  updatedAt: string | null;
  /** Where the provider must send this tenant's events, and which ones. */
  webhookUrl: string;
  events: readonly string[];
  /** False when SECRETS_KEY is not configured: nothing can be stored. */
  canStore: boolean;
};

/** The answer of "Test connection". */
export type ConnectionTest =
  | { ok: true; source: "tenant" | "default" }
  | { ok: false; source: "tenant" | "default"; problem: "refused" | "unreachable" | "unusable"; message: string };
