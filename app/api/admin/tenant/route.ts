import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { getTenantSettings, updateTenantSettings } from "@/lib/server/admin/update-tenant-settings";

export const dynamic = "force-dynamic";

/** GET /api/admin/tenant → {slug, name, currency, locale, timeZone, currencyLocked}. */
export const GET = staffRoute(async (actor) => getTenantSettings(actor));

/** PATCH /api/admin/tenant {name?, locale?, timeZone?, currency?} → 200 the settings after the change (audited). */
export const PATCH = staffRoute(async (actor, request) => updateTenantSettings(actor, await jsonBody(request)));
