import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import {
  getNotificationPreferences,
  updateNotificationPreferences,
} from "@/lib/server/notifications/notification-preferences";

export const dynamic = "force-dynamic";

/** GET /api/account/notifications — your own notification preferences (reviewers and ops). */
export const GET = staffRoute(async (actor) => getNotificationPreferences(actor));

/** PUT /api/account/notifications {emailNewProposal?, emailExpiring?, emailInDoubt?} — change your own. */
export const PUT = staffRoute(async (actor, request) => updateNotificationPreferences(actor, await jsonBody(request)));
