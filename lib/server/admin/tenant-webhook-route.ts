import "server-only";
import { clearTenantWebhookInput, setTenantWebhookInput } from "@/lib/schemas/tenant-webhooks";
import type { Actor } from "@/lib/server/auth/actor";
import { jsonBody, optionalJsonBody } from "@/lib/server/http/staff-route";
import { parseForm } from "./zod-problem";

type SetWebhook = (actor: Actor, input: { intent: "save"; url: string } | { intent: "clear" }) => Promise<unknown>;

/**
 * PUT {url, stepUpPassword?} saves and DELETE {stepUpPassword?} clears one of the tenant's notification webhooks
 * (reviewer, Slack) through its use case, which checks permission, tenant and URL; the body is strict here. The
 * route files wrap each handler in staffRoute themselves (the credential stays visible where the route is).
 */
export function tenantWebhookHandlers(set: SetWebhook) {
  return {
    save: async (actor: Actor, request: Request) => {
      const { url } = parseForm(setTenantWebhookInput, await jsonBody(request));
      return set(actor, { intent: "save", url });
    },
    clear: async (actor: Actor, request: Request) => {
      parseForm(clearTenantWebhookInput, await optionalJsonBody(request));
      return set(actor, { intent: "clear" });
    },
  };
}
