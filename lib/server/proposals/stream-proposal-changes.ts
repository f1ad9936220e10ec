import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import type { Actor } from "@/lib/server/auth/actor";
import {
  proposalChangesReady,
  subscribeProposalChanges,
  type ProposalChangeEvent,
} from "@/lib/server/realtime/proposal-changes";

/** A stream lives this long, then ends; the browser reconnects at once and the session is checked again. */
export const STREAM_MAX_MS = 5 * 60_000;
const HEARTBEAT_MS = 20_000;

const encoder = new TextEncoder();
const frame = (event: string, data: object) => encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

/**
 * Server-sent events for the dashboard: every status change of this tenant's proposals and executions, fed
 * by the process's one LISTEN connection (lib/server/realtime). Ids, kind and status only — what the page
 * then re-reads through its own authorized routes. `resync` after the listener reconnected: the page
 * re-reads everything. Authorized like the pages that use it; the subscription is the actor's tenant's, so
 * another tenant's change never reaches the stream (tests/integration/change-stream.test.ts).
 */
export function streamProposalChanges(
  actor: Actor,
  signal: AbortSignal,
  opts: { maxMs?: number } = {},
): ReadableStream<Uint8Array> {
  assertCan(actor.roles, "proposal:read");
  let stop = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const send = (bytes: Uint8Array) => {
        if (!closed) controller.enqueue(bytes);
      };
      const onEvent = (e: ProposalChangeEvent) => {
        if (e.kind === "resync") send(frame("resync", {}));
        else {
          const { tenantId: _tenant, ...change } = e;
          send(frame("change", change));
        }
      };
      const unsubscribe = subscribeProposalChanges(actor.tenantId, onEvent);
      const heartbeat = setInterval(() => send(encoder.encode(": ping\n\n")), HEARTBEAT_MS);
      const end = setTimeout(() => stop(), opts.maxMs ?? STREAM_MAX_MS);
      stop = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        clearInterval(heartbeat);
        clearTimeout(end);
        signal.removeEventListener("abort", stop);
        try {
          controller.close();
        } catch {
          // already cancelled by the reader
        }
      };
      signal.addEventListener("abort", stop);
      // Reconnect quickly after the planned end or a dropped connection. "ready" only once LISTEN is active,
      // so the page's re-read on "ready" cannot miss a change committed in between; if LISTEN cannot be
      // made, the stream ends and the page keeps polling until a reconnect succeeds.
      send(encoder.encode("retry: 1000\n\n"));
      proposalChangesReady().then(
        () => send(frame("ready", {})),
        () => stop(),
      );
    },
    cancel() {
      stop();
    },
  });
}
