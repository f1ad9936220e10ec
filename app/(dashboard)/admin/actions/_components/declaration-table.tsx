"use client";

import { ClientForm } from "@/components/forms/client-form";
import { useRef } from "react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import type { Column } from "@/components/ui/data-table";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { DateTime } from "@/components/ui/date-time";
import { AdminTable } from "../../_components/admin-table";
import { FormError } from "../../_components/form-error";
import { StepUpField, stepUpValue } from "../../_components/step-up-field";
import type { DeclarationRow } from "./declaration";
import { useDeclarationDecision } from "./use-declaration-decision";

/**
 * An active version: retire it (tightening: one admin is enough; asked first, and with the password when the server
 * asks for step-up), or start its next version from it.
 */
function ActiveActions({ row, onDone }: { row: DeclarationRow; onDone: (message: string) => void }) {
  const t = useTranslations("adminActions");
  const decide = useDeclarationDecision();
  const form = useRef<HTMLFormElement>(null);
  return (
    <ClientForm ref={form} className="flex flex-wrap items-end gap-3" onSubmit={(e) => e.preventDefault()}>
      <Link href={`/admin/actions/new?from=${encodeURIComponent(row.name)}`}>{t("newVersion")}</Link>
      <StepUpField id={`retire-step-up-${row.id}`} show={decide.needsStepUp} />
      <ConfirmButton
        label={t("retire")}
        ariaLabel={t("retireNamed", { name: row.name })}
        title={t("retireTitle", { name: row.name })}
        description={t("retireDescription")}
        confirmLabel={t("retire")}
        disabled={decide.pending}
        onConfirm={async () => {
          const body = form.current ? stepUpValue(new FormData(form.current)) : {};
          if (await decide.send(row.id, "retire", body)) onDone(t("done.retired"));
        }}
      />
      <FormError id={`retire-error-${row.id}`} error={decide.error} />
    </ClientForm>
  );
}

/** Every declaration version the list holds, one row each. */
export function DeclarationTable({ rows, onDone }: { rows: DeclarationRow[]; onDone: (message: string) => void }) {
  const t = useTranslations("adminActions");
  const columns: Column<DeclarationRow>[] = [
    { id: "name", header: t("name"), cell: (r) => <code className="mono">{r.name}</code> },
    { id: "version", header: t("version"), cell: (r) => t("versionN", { version: r.version }) },
    {
      id: "status",
      header: t("status"),
      cell: (r) => (
        <span className={r.status === "active" ? "badge ok" : r.status === "pending" ? "badge flag" : "badge"}>
          {t(`statuses.${r.status}`)}
        </span>
      ),
    },
    {
      id: "proposedBy",
      header: t("proposedBy"),
      cell: (r) => (
        <>
          {r.proposedBy.name} <span className="muted">({r.proposedBy.email})</span>
          <br />
          <DateTime value={r.proposedAt} className="muted" />
        </>
      ),
    },
    {
      id: "actions",
      header: t("actions"),
      cell: (r) =>
        r.status === "active" ? (
          <ActiveActions row={r} onDone={onDone} />
        ) : r.status === "pending" ? (
          <a href={`#declaration-${r.id}`}>{t("reviewBelow")}</a>
        ) : null,
    },
  ];
  return (
    <AdminTable
      label={t("tableLabel")}
      columns={columns}
      rows={rows}
      rowAttributes={(r) => ({ "data-declaration": r.id, "data-status": r.status })}
      empty={<p className="muted">{t("none")}</p>}
    />
  );
}
