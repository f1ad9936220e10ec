import { getTranslations } from "next-intl/server";
import { DateTime } from "@/components/ui/date-time";
import type { Actor } from "@/lib/server/auth/actor";
import { listIntegrationKeys } from "@/lib/server/integrations/list-integration-keys";
import { Section } from "@/components/page/section";
import { keyColumns } from "./key-validity";
import { AdminTable } from "./admin-table";
import { IssueIntegrationKeyForm } from "./integration-key-form";

/** Admin page section: the keys the shop's systems use on the Orders API (docs/systems-of-record.md). */
export async function IntegrationKeysSection({ actor }: { actor: Actor }) {
  const { keys } = await listIntegrationKeys(actor);
  const tm = await getTranslations("adminManage");
  const columns = await keyColumns<(typeof keys)[number]>(
    "integration",
    [{ id: "scopes", header: tm("scopes"), cell: (k) => k.scopes.join(", "), className: "mono" }],
    [{ id: "created", header: tm("created"), cell: (k) => <DateTime value={k.createdAt} /> }],
  );
  return (
    <Section titleId="integration-keys-title" title={tm("integrationKeys")} className="stack">
      <p className="muted">{tm("integrationKeysIntro")}</p>
      <AdminTable
        label={tm("integrationKeys")}
        columns={columns}
        rows={keys}
        empty={<p>{tm("noIntegrationKeys")}</p>}
      />
      <IssueIntegrationKeyForm />
    </Section>
  );
}
