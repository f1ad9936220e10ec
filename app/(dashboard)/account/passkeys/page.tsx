import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { getActor } from "@/lib/server/auth/actor";
import { listPasskeys } from "@/lib/server/passkeys/list-passkeys";
import { DataTable, type Column } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { Section } from "@/components/page/section";
import { RegisterPasskeyForm } from "./_components/register-passkey-form";
import { PasskeyRowActions } from "./_components/passkey-row-actions";

export const dynamic = "force-dynamic";

// Every signed-in staff member manages their own passkeys here (no role needed; only their own rows).
export default async function PasskeysPage() {
  const actor = await getActor();
  if (!actor) redirect("/sign-in");
  const t = await getTranslations("passkeys");
  const tm = await getTranslations("passkeyManage");
  const passkeys = await listPasskeys(actor);
  const columns: Column<(typeof passkeys)[number]>[] = [
    { id: "name", header: t("name"), cell: (p) => p.name },
    { id: "created", header: t("created"), cell: (p) => <DateTime value={p.createdAt} /> },
    {
      id: "lastUsed",
      header: t("lastUsed"),
      cell: (p) => (p.lastUsedAt ? <DateTime value={p.lastUsedAt} /> : t("never")),
    },
    { id: "actions", header: tm("actions"), cell: (p) => <PasskeyRowActions id={p.id} name={p.name} /> },
  ];
  return (
    <Section titleId="passkeys-title" title={t("title")} level={1} lead={t("description")}>
      <DataTable
        label={t("listLabel")}
        columns={columns}
        rows={passkeys}
        rowAttributes={(p) => ({ "data-passkey-id": p.id })}
        tableAttributes={{ "data-testid": "passkey-list" }}
        empty={
          <p className="muted" data-testid="no-passkeys">
            {t("empty")}
          </p>
        }
      />
      <RegisterPasskeyForm />
    </Section>
  );
}
