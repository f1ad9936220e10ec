import type { Actor } from "@/lib/server/auth/actor";
import { getProviderConnection } from "@/lib/server/admin/provider-connection/get-provider-connection";
import { ProviderConnectionForm } from "./provider-connection-form";

/** Admin page section: the tenant's own payment provider connection (docs/systems-of-record.md "Per-tenant connection"). */
export async function ProviderConnectionSection({ actor }: { actor: Actor }) {
  return <ProviderConnectionForm view={await getProviderConnection(actor)} />;
}
