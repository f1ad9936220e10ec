// A small typed client for the shop's control endpoint, for tests, the demo start and benches. (Actions themselves
// go through the action endpoint, signed, as the gateway sends them; never through this.)
import type { ActionView, FaultInput, OrderInput, OrderView, ResetInput, ShopCounters } from "./control";
import type { Fault } from "./faults";

/** A refusal of the control endpoint (its HTTP status and message). */
export class ShopControlError extends Error {
  constructor(
    route: string,
    readonly status: number,
    message: string,
  ) {
    super(`shop control ${route}: ${status} ${message}`);
    this.name = "ShopControlError";
  }
}

export function shopControl(baseUrl: string, controlToken: string) {
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
    const json = (await response.json()) as T & { message?: string };
    if (!response.ok) throw new ShopControlError(`${method} ${path}`, response.status, json.message ?? "");
    return json;
  };
  const order = (orderNumber: string) => `orders/${encodeURIComponent(orderNumber)}`;
  return {
    health: () => call<{ ok: boolean }>("GET", "health"),
    /** Creates the order (default `unfulfilled`, no address) or sets what is given: the shop's back office. */
    setOrder: (orderNumber: string, input: OrderInput = {}) => call<OrderView>("PUT", order(orderNumber), input),
    /** The order as the shop holds it; null when it does not know the order. */
    order: async (orderNumber: string): Promise<OrderView | null> => {
      try {
        return await call<OrderView>("GET", order(orderNumber));
      } catch (error) {
        if (error instanceof ShopControlError && error.status === 404) return null;
        throw error;
      }
    },
    /** The actions received (newest first, at most 100), optionally only one key's or one order's. */
    actions: (filter: { idempotencyKey?: string; orderNumber?: string } = {}) => {
      const query = new URLSearchParams(
        Object.entries(filter).filter((e): e is [string, string] => typeof e[1] === "string"),
      ).toString();
      return call<{ data: ActionView[] }>("GET", `actions${query ? `?${query}` : ""}`);
    },
    /** The shop finishes an action it answered `pending` (the answer_pending fault); 409 when it is not pending. */
    completeAction: (idempotencyKey: string) =>
      call<ActionView>("POST", `actions/${encodeURIComponent(idempotencyKey)}/complete`),
    addFault: (input: FaultInput) => call<Fault>("POST", "faults", input),
    faults: () => call<{ data: Fault[] }>("GET", "faults"),
    clearFaults: () => call<{ data: [] }>("DELETE", "faults"),
    counters: () => call<ShopCounters>("GET", "counters"),
    /** Clears faults and counters; with `data: true` also every order and action. */
    reset: (opts: ResetInput = {}) => call<{ ok: true }>("POST", "reset", opts),
  };
}

export type ShopControl = ReturnType<typeof shopControl>;
