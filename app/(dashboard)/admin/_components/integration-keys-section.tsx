import { getTranslations } from "next-intl/server";
import { DataTable } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import type { Actor } from "@/lib/server/auth/actor";
import { listIntegrationKeys } from "@/lib/server/integrations/list-integration-keys";
import { keyColumns } from "./key-validity";
import { adminCellClass } from "./admin-table";
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
    <section aria-labelledby="integration-keys-title" className="stack">
      <h2 id="integration-keys-title">{tm("integrationKeys")}</h2>
      <p className="muted">{tm("integrationKeysIntro")}</p>
      <DataTable
        label={tm("integrationKeys")}
        columns={columns}
        rows={keys}
        rowKey={(k) => k.id}
        cellClassName={adminCellClass}
        empty={<p>{tm("noIntegrationKeys")}</p>}
      />
      <IssueIntegrationKeyForm />
    </section>
  );
}
