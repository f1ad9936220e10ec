"use client";

import { ClientForm } from "@/components/forms/client-form";
import { useState } from "react";
import { useTranslations } from "next-intl";
import type { AdminChangeWhat, ApproverRefusal } from "@/lib/domain/admin-governance";
import type { Column } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { Section } from "@/components/page/section";
import { Notice } from "@/components/forms/notice";
import { AdminTable } from "./admin-table";
import { useAdminRequest } from "./use-admin-request";
import { StepUpField, stepUpValue } from "./step-up-field";
import { FormError, ShownOnce } from "./form-error";
import { adminChangeStatus } from "@/lib/domain/admin-governance";
import { ClientButton } from "@/components/ui/client-button";

export type AdminChangeRow = {
  id: string;
  what: AdminChangeWhat[];
  target: { name: string; email: string };
  proposedBy: string;
  expiresAt: string;
  mine: boolean;
  approvalRefusal: ApproverRefusal | null;
};

/**
 * "Waiting for a second admin": the tenant's pending admin-level changes with Approve / Reject (another admin)
 * or Cancel (the proposer), and, when nobody could approve the viewer's changes, what the tenant cannot do alone.
 */
export function AdminChangesSection({
  rows,
  alone,
  tenantSlug,
}: {
  rows: AdminChangeRow[];
  alone: boolean;
  tenantSlug: string;
}) {
  const t = useTranslations("adminChanges");
  const tm = useTranslations("adminManage");
  const decide = useAdminRequest<{ status: string; setupUrl?: string }>();
  const [done, setDone] = useState<string | null>(null);
  const [link, setLink] = useState<string | null>(null);

  async function send(id: string, decision: "approve" | "reject" | "cancel", body: Record<string, unknown> = {}) {
    setDone(null);
    setLink(null);
    const r = await decide.run("POST", `/api/admin/changes/${id}/${decision}`, body);
    if (!r) return;
    setDone(
      t(
        r.status === adminChangeStatus.approved
          ? adminChangeStatus.approved
          : r.status === adminChangeStatus.rejected
            ? adminChangeStatus.rejected
            : adminChangeStatus.cancelled,
      ),
    );
    if (r.setupUrl) setLink(r.setupUrl);
  }

  // The proposer may cancel; another admin approves (when the rules let them) or rejects.
  const actions = (r: AdminChangeRow, named: { what: string; email: string }) =>
    r.mine ? (
      <>
        <p className="muted">{t("mine")}</p>
        <ClientButton
          type="button"
          className="secondary"
          disabled={decide.pending}
          onClick={() => send(r.id, "cancel")}
        >
          {t("cancelNamed", named)}
        </ClientButton>
      </>
    ) : (
      <div className="row-actions">
        {r.approvalRefusal ? (
          <p className="muted">{t(`refusals.${r.approvalRefusal}`)}</p>
        ) : (
          <ClientForm
            onSubmit={(e) => {
              e.preventDefault();
              void send(r.id, "approve", stepUpValue(new FormData(e.currentTarget)));
            }}
          >
            <StepUpField id={`approve-step-up-${r.id}`} show={decide.needsStepUp} />
            <button type="submit" disabled={decide.pending}>
              {t("approveNamed", named)}
            </button>
          </ClientForm>
        )}
        <ClientButton
          type="button"
          className="secondary"
          disabled={decide.pending}
          onClick={() => send(r.id, "reject")}
        >
          {t("rejectNamed", named)}
        </ClientButton>
      </div>
    );
  const whatOf = (r: AdminChangeRow) => r.what.map((w) => t(`kinds.${w}`)).join(", ");
  const columns: Column<AdminChangeRow>[] = [
    { id: "what", header: t("what"), cell: whatOf },
    {
      id: "account",
      header: t("account"),
      cell: (r) => (
        <>
          {r.target.name} <span className="muted">({r.target.email})</span>
        </>
      ),
    },
    { id: "proposedBy", header: t("proposedBy"), cell: (r) => r.proposedBy },
    { id: "expires", header: t("expires"), cell: (r) => <DateTime value={r.expiresAt} /> },
    {
      id: "actions",
      header: t("actions"),
      cell: (r) => actions(r, { what: whatOf(r), email: r.target.email }),
    },
  ];

  return (
    <Section titleId="admin-changes-title" title={t("title")} className="panel stack">
      <p className="muted">{t("intro")}</p>
      {alone ? (
        <p className="notice" data-testid="single-admin">
          {t("alone", { tenant: tenantSlug })}
        </p>
      ) : null}
      <Notice>{done}</Notice>
      {link ? <ShownOnce label={tm("setupLink")} value={link} note={tm("setupLinkNote")} /> : null}
      <FormError id="admin-change-error" error={decide.error} />
      <AdminTable
        label={t("title")}
        columns={columns}
        rows={rows}
        rowAttributes={(r) => ({ "data-change": r.id })}
        empty={<p className="muted">{t("none")}</p>}
      />
    </Section>
  );
}
