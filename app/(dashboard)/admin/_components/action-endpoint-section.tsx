import Link from "next/link";
import { getTranslations } from "next-intl/server";
import type { Actor } from "@/lib/server/auth/actor";
import { getActionEndpoint } from "@/lib/server/admin/action-endpoint/get-action-endpoint";
import { ActionEndpointForm } from "./action-endpoint-form";

/** Admin page section: the tenant's action endpoint (docs/action-endpoint.md), and the way to the bulk messages' segments. */
export async function ActionEndpointSection({ actor }: { actor: Actor }) {
  const [view, t] = await Promise.all([getActionEndpoint(actor), getTranslations("adminSegments")]);
  return (
    <>
      <ActionEndpointForm view={view} />
      <p>
        <Link href="/admin/segments">{t("open")}</Link>
      </p>
    </>
  );
}
