"use client";

import { useTranslations } from "next-intl";
import { ConfirmButton } from "@/components/ui/confirm-button";
import type { Column } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { AdminTable } from "./admin-table";

export type WitnessView = {
  id: string;
  name: string;
  vkey: string;
  url: string;
  cosignedSize: number | null;
  cosignedAt: string | null;
  lastError: string | null;
};

/** The tenant's witnesses: name and verification key, URL, what each last cosigned or why it refused, remove. */
export function WitnessTable({
  witnesses,
  removing,
  onRemove,
}: {
  witnesses: WitnessView[];
  removing: boolean;
  onRemove: (w: WitnessView) => Promise<unknown>;
}) {
  const t = useTranslations("adminWitnesses");
  const columns: Column<WitnessView>[] = [
    {
      id: "name",
      header: t("name"),
      cell: (w) => (
        <>
          {w.name}
          <br />
          <code className="mono small">{w.vkey}</code>
        </>
      ),
    },
    { id: "url", header: t("url"), cell: (w) => w.url, className: "mono" },
    {
      id: "cosigned",
      header: t("cosigned"),
      cell: (w) =>
        w.cosignedSize === null ? (
          t("never")
        ) : (
          <>
            {t("size", { size: w.cosignedSize })} {w.cosignedAt ? <DateTime value={w.cosignedAt} /> : null}
          </>
        ),
    },
    {
      id: "lastError",
      header: t("lastError"),
      cell: (w) => (w.lastError ? <span className="badge danger">{w.lastError}</span> : "—"),
    },
    {
      id: "actions",
      header: t("actions"),
      cell: (w) => (
        <ConfirmButton
          label={t("removeNamed", { name: w.name })}
          disabled={removing}
          title={t("removeTitle")}
          description={t("removeConfirm", { name: w.name })}
          confirmLabel={t("removeConfirmButton")}
          onConfirm={() => onRemove(w)}
        />
      ),
    },
  ];
  return (
    <AdminTable label={t("title")} columns={columns} rows={witnesses} empty={<p className="muted">{t("none")}</p>} />
  );
}
