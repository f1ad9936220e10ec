import { staffRoute } from "@/lib/server/http/staff-route";
import { streamProposalChanges } from "@/lib/server/proposals/stream-proposal-changes";

export const dynamic = "force-dynamic";

/** The dashboard's push channel (server-sent events): docs/design.md "Live updates". */
export const GET = staffRoute(
  async (actor, request) =>
    new Response(streamProposalChanges(actor, request.signal), {
      headers: {
        "Content-Type": "text/event-stream; charset=utf-8",
        // no-transform: no compression layer may hold events back to fill a buffer.
        "Cache-Control": "no-cache, no-store, no-transform",
        "X-Accel-Buffering": "no",
      },
    }),
);
