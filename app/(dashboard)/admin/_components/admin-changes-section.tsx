"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import type { AdminChangeWhat, ApproverRefusal } from "@/lib/domain/admin-governance";
import { DateTime } from "@/components/ui/date-time";
import { useAdminRequest } from "./use-admin-request";
import { StepUpField, stepUpValue } from "./step-up-field";
import { FormError, ShownOnce } from "./form-error";
import { adminChangeStatus } from "@/lib/domain/admin-governance";

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

  return (
    <section aria-labelledby="admin-changes-title" className="panel stack">
      <h2 id="admin-changes-title">{t("title")}</h2>
      <p className="muted">{t("intro")}</p>
      {alone ? (
        <p className="notice" data-testid="single-admin">
          {t("alone", { tenant: tenantSlug })}
        </p>
      ) : null}
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      {link ? <ShownOnce label={tm("setupLink")} value={link} note={tm("setupLinkNote")} /> : null}
      <FormError id="admin-change-error" error={decide.error} />
      {rows.length === 0 ? (
        <p className="muted">{t("none")}</p>
      ) : (
        <table aria-labelledby="admin-changes-title">
          <thead>
            <tr>
              <th scope="col">{t("what")}</th>
              <th scope="col">{t("account")}</th>
              <th scope="col">{t("proposedBy")}</th>
              <th scope="col">{t("expires")}</th>
              <th scope="col">{t("actions")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const what = r.what.map((w) => t(`kinds.${w}`)).join(", ");
              const named = { what, email: r.target.email };
              return (
                <tr key={r.id} data-change={r.id}>
                  <td>{what}</td>
                  <td>
                    {r.target.name} <span className="muted">({r.target.email})</span>
                  </td>
                  <td>{r.proposedBy}</td>
                  <td>
                    <DateTime value={r.expiresAt} />
                  </td>
                  <td>
                    {r.mine ? (
                      <>
                        <p className="muted">{t("mine")}</p>
                        <button
                          type="button"
                          className="secondary"
                          disabled={decide.pending}
                          onClick={() => send(r.id, "cancel")}
                        >
                          {t("cancelNamed", named)}
                        </button>
                      </>
                    ) : (
                      <div className="row-actions">
                        {r.approvalRefusal ? (
                          <p className="muted">{t(`refusals.${r.approvalRefusal}`)}</p>
                        ) : (
                          <form
                            onSubmit={(e) => {
                              e.preventDefault();
                              void send(r.id, "approve", stepUpValue(new FormData(e.currentTarget)));
                            }}
                          >
                            <StepUpField id={`approve-step-up-${r.id}`} show={decide.needsStepUp} />
                            <button type="submit" disabled={decide.pending}>
                              {t("approveNamed", named)}
                            </button>
                          </form>
                        )}
                        <button
                          type="button"
                          className="secondary"
                          disabled={decide.pending}
                          onClick={() => send(r.id, "reject")}
                        >
                          {t("rejectNamed", named)}
                        </button>
                      </div>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
