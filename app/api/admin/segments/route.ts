import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { createSegmentVersion, listSegments } from "@/lib/server/admin/segments";

export const dynamic = "force-dynamic";

/** GET /api/admin/segments → {data: [{id, slug, version, name, filter, createdAt}]}: each segment's newest version. */
export const GET = staffRoute(async (actor) => listSegments(actor));

/**
 * POST /api/admin/segments {slug, name, filter: {statuses?, skus?, placedFrom?, placedTo?, countries?}, stepUpPassword?}
 * → 200 the new version (1 for a new slug; the next one otherwise).
 */
export const POST = staffRoute(async (actor, request) => createSegmentVersion(actor, await jsonBody(request)));
