import type { Actor } from "@/lib/server/auth/actor";
import { getActionEndpoint } from "@/lib/server/admin/action-endpoint/get-action-endpoint";
import { ActionEndpointForm } from "./action-endpoint-form";

/** Admin page section: the tenant's action endpoint (docs/action-endpoint.md). */
export async function ActionEndpointSection({ actor }: { actor: Actor }) {
  return <ActionEndpointForm view={await getActionEndpoint(actor)} />;
}
