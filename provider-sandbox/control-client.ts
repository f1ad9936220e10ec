// A small typed client for the sandbox's control endpoint, for tests, the demo start and benches.
// (Refunds themselves go through the payment adapter, lib/server/payments, never through this.)
import type { AccountView, RegisterAccountInput } from "./accounts";
import type {
  BehaviourInput,
  CreatePaymentIntentInput,
  DashboardRefundInput,
  DisputeInput,
  FaultInput,
} from "./control";
import type { Fault } from "./faults";
import type { StripeRefund } from "./objects";

export type SandboxCounters = {
  refunds: { total: number; byStatus: Record<string, number> };
  paymentIntents: Record<string, { refunds: number; amount: number; byStatus: Record<string, number> }>;
  idempotencyKeys: number;
  events: { total: number; delivered: number; gaveUp: number; waiting: number };
  requests: Record<string, number>;
};

export type SandboxPaymentIntent = {
  id: string;
  account: string;
  amount: number;
  amount_refunded: number;
  currency: string;
  latest_charge: string;
  refund_mode: string | null;
  settle_delay_ms: number | null;
};

export type SandboxEventView = {
  id: string;
  account: string;
  type: string;
  attempts: number;
  delivered_at: string | null;
  gave_up_at: string | null;
  last_status: number | null;
  last_error: string | null;
};

export function sandboxControl(baseUrl: string, controlToken: string) {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${baseUrl.replace(/\/+$/, "")}/__control/${path}`, {
      method,
      headers: {
        authorization: `Bearer ${controlToken}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const json = (await response.json()) as T & { error?: { message: string } };
    if (!response.ok)
      throw new Error(`sandbox control ${method} ${path}: ${response.status} ${json.error?.message ?? ""}`);
    return json;
  };
  return {
    health: () => call<{ ok: boolean }>("GET", "health"),
    /** A Stripe account of its own: its keys see only its objects; its events go to its endpoint, signed with its secret. */
    registerAccount: (input: RegisterAccountInput) => call<AccountView>("POST", "accounts", input),
    accounts: () => call<{ data: AccountView[] }>("GET", "accounts"),
    /** A refund made at the provider by someone else (the shop's dashboard), in the payment intent's account. */
    refundElsewhere: (input: DashboardRefundInput) => call<StripeRefund>("POST", "refunds", input),
    /** Opens a dispute on the payment intent's charge (`charge.dispute.created` to its account's endpoint). */
    openDispute: (input: DisputeInput) =>
      call<{ id: string; amount: number; payment_intent: string; status: string }>("POST", "disputes", input),
    createPaymentIntent: (input: CreatePaymentIntentInput) =>
      call<SandboxPaymentIntent>("POST", "payment_intents", input),
    paymentIntent: (id: string) => call<SandboxPaymentIntent>("GET", `payment_intents/${encodeURIComponent(id)}`),
    addFault: (input: FaultInput) => call<Fault>("POST", "faults", input),
    faults: () => call<{ data: Fault[] }>("GET", "faults"),
    clearFaults: () => call<{ data: [] }>("DELETE", "faults"),
    setBehaviour: (input: BehaviourInput) => call<unknown>("POST", "behaviour", input),
    settleRefund: (id: string, status: "succeeded" | "failed") =>
      call<StripeRefund>("POST", `refunds/${encodeURIComponent(id)}/settle`, { status }),
    counters: () => call<SandboxCounters>("GET", "counters"),
    events: () => call<{ data: SandboxEventView[] }>("GET", "events"),
    /** Clears faults and behaviour; with `data: true` also every payment intent, refund, key and event. */
    reset: (opts: { data?: boolean } = {}) => call<{ ok: true }>("POST", "reset", opts),
  };
}

export type SandboxControl = ReturnType<typeof sandboxControl>;
