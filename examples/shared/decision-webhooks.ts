// The channel's decision webhook as an agent's harness receives it (docs/agent-api.md "Decision webhooks"): a small
// HTTP listener that verifies every request with the Standard Webhooks reference package (`standardwebhooks`) and
// hands on only what verified. A request with a bad or missing signature, or a timestamp more than five minutes
// away, is answered 401 and goes nowhere: it cannot resume a run. Deliveries are at least once, so a webhook-id
// already handled is answered 200 and not handed on again. Used by the recipes that resume a saved run when the
// decision arrives (examples/openai-agents-approval, examples/langgraph).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export type DecisionEvent = {
  /** The delivery id (`webhook-id`): the same on every retry of one delivery. */
  id: string;
  type: string;
  data: {
    proposal_id: string;
    status: string;
    kind?: string;
    order_id?: string;
    amount?: { minor: number; currency: string };
    reason?: string | null;
    trace_id?: string;
  };
};

/** What a paused run is resumed with: approved, or not (with the reason the customer is told). */
export type Decision = { approved: true } | { approved: false; reason: string };

/**
 * The decision an event carries, or null when it is not one (`refund.succeeded`, `webhook.test`…: the outcome of an
 * approved action is read from the gateway, not from here).
 */
export function decisionOf(event: DecisionEvent): Decision | null {
  switch (event.type) {
    case "proposal.approved":
      return { approved: true };
    case "proposal.rejected":
      return { approved: false, reason: event.data.reason ?? "A reviewer did not approve it." };
    case "proposal.expired":
      return { approved: false, reason: "Nobody approved it before it expired." };
    case "proposal.invalidated":
      return { approved: false, reason: "What it was prepared from changed, so it can no longer be approved." };
    case "proposal.superseded":
      return { approved: false, reason: "A reviewer changed it; a new proposal takes its place." };
    default:
      return null;
  }
}

export type DecisionReceiver = {
  /** Where the channel's decision webhook should point. */
  url: string;
  /** Every verified event, in order of arrival (a retried delivery once). */
  verified: DecisionEvent[];
  /** How many requests were refused (bad signature, stale timestamp, not JSON). */
  refused: () => number;
  close: () => Promise<void>;
};

/**
 * Starts the listener. `secret` is the channel's `whsec_…` secret (shown once when the webhook was set). `handle` is
 * called with each verified event once, after the 200 has been answered (the gateway's delivery does not wait
 * for a run to resume); its errors go to `onError`.
 */
export async function startDecisionReceiver(opts: {
  /** The secret, or how to read it (a test sets the webhook after the listener knows its URL). */
  secret: string | (() => string);
  handle: (event: DecisionEvent) => Promise<unknown>;
  onError?: (error: unknown) => void;
  host?: string;
  port?: number;
}): Promise<DecisionReceiver> {
  const secret = typeof opts.secret === "string" ? () => opts.secret as string : opts.secret;
  const verified: DecisionEvent[] = [];
  const seen = new Set<string>();
  let refused = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const header = (name: string) => String(req.headers[name] ?? "");
      let event: Omit<DecisionEvent, "id">;
      try {
        event = new Webhook(secret()).verify(body, {
          "webhook-id": header("webhook-id"),
          "webhook-timestamp": header("webhook-timestamp"),
          "webhook-signature": header("webhook-signature"),
        }) as Omit<DecisionEvent, "id">;
      } catch {
        refused += 1;
        res.writeHead(401).end();
        return;
      }
      const id = header("webhook-id");
      res.writeHead(200).end();
      if (seen.has(id)) return;
      seen.add(id);
      const full = { ...event, id };
      verified.push(full);
      opts.handle(full).catch((error: unknown) => (opts.onError ?? console.error)(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", resolve));
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}/decisions`,
    verified,
    refused: () => refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
