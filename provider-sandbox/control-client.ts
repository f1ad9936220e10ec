// A small typed client for the sandbox's control endpoint, for tests, the demo start and benches.
// (Refunds themselves go through the payment adapter, lib/server/payments, never through this.)
import type { BehaviourInput, CreatePaymentIntentInput, FaultInput } from "./control";
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
  amount: number;
  amount_refunded: number;
  currency: string;
  latest_charge: string;
  refund_mode: string | null;
  settle_delay_ms: number | null;
};

export type SandboxEventView = {
  id: string;
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
      headers: { authorization: `Bearer ${controlToken}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const json = (await response.json()) as T & { error?: { message: string } };
    if (!response.ok) throw new Error(`sandbox control ${method} ${path}: ${response.status} ${json.error?.message ?? ""}`);
    return json;
  };
  return {
    health: () => call<{ ok: boolean }>("GET", "health"),
    createPaymentIntent: (input: CreatePaymentIntentInput) => call<SandboxPaymentIntent>("POST", "payment_intents", input),
    paymentIntent: (id: string) => call<SandboxPaymentIntent>("GET", `payment_intents/${encodeURIComponent(id)}`),
    addFault: (input: FaultInput) => call<Fault>("POST", "faults", input),
    faults: () => call<{ data: Fault[] }>("GET", "faults"),
    clearFaults: () => call<{ data: [] }>("DELETE", "faults"),
    setBehaviour: (input: BehaviourInput) => call<unknown>("POST", "behaviour", input),
    settleRefund: (id: string, status: "succeeded" | "failed") => call<StripeRefund>("POST", `refunds/${encodeURIComponent(id)}/settle`, { status }),
    counters: () => call<SandboxCounters>("GET", "counters"),
    events: () => call<{ data: SandboxEventView[] }>("GET", "events"),
    /** Clears faults and behaviour; with `data: true` also every payment intent, refund, key and event. */
    reset: (opts: { data?: boolean } = {}) => call<{ ok: true }>("POST", "reset", opts),
  };
}

export type SandboxControl = ReturnType<typeof sandboxControl>;
