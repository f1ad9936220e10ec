import { Fragment } from "react";
import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import type { getAuditTrace } from "@/lib/server/audit/get-audit-trace";
import { DateTime } from "@/components/ui/date-time";
import { reviewFieldLabel, type LocalizedLabel } from "@/lib/i18n/review-label";
import { Money } from "@/components/domain/money";

type TraceProposalRow = Awaited<ReturnType<typeof getAuditTrace>>["proposals"][number];

/** One proposal of a trace: its facts and hash, who approved and how, its execution, the evidence links. */
export async function TraceProposal({ p, mayDownloadEvidence }: { p: TraceProposalRow; mayDownloadEvidence: boolean }) {
  const t = await getTranslations("trace");
  const ta = await getTranslations("audit");
  const ts = await getTranslations("status");
  const tx = await getTranslations("executions.states");
  const tm = await getTranslations("authMethods");
  const tr = await getTranslations("reasons");
  const tk = await getTranslations("kinds");
  const locale = await getLocale();
  const label = (f: { key: string; label?: LocalizedLabel }) =>
    reviewFieldLabel(f, locale, (key) => (tk.has(`${p.kind}.fields.${key}`) ? tk(`${p.kind}.fields.${key}`) : key));
  return (
    <article className="panel" aria-label={t("proposal", { id: p.id })} data-proposal-id={p.id}>
      <h3 className="mono">{t("proposal", { id: p.id })}</h3>
      <dl className="facts">
        <dt>{t("status")}</dt>
        <dd title={p.status}>{ts.has(p.status) ? ts(p.status) : p.status}</dd>
        {p.amountMinor !== null && p.currency !== null ? (
          <>
            <dt>{t("amount")}</dt>
            <dd>
              <Money minor={p.amountMinor} currency={p.currency} exact />
            </dd>
            <dt>{t("recipient")}</dt>
            <dd>{p.recipientDisplay}</dd>
          </>
        ) : (
          <>
            <dt>{t("kind")}</dt>
            <dd data-kind={p.kind}>{tk.has(`${p.kind}.title`) ? tk(`${p.kind}.title`) : p.kind}</dd>
            {/* The kind's values from the hashed params: before → after where it changes. */}
            {(p.fields ?? []).map((f) => (
              <Fragment key={f.key}>
                <dt>{label(f)}</dt>
                <dd data-field={f.key} data-changed={f.changed ? "true" : undefined}>
                  {f.changed && f.before !== null ? `${f.before} → ${f.after ?? "—"}` : (f.after ?? "—")}
                </dd>
              </Fragment>
            ))}
          </>
        )}
        <dt>{t("reason")}</dt>
        <dd title={p.reason}>{tr.has(p.reason) ? tr(p.reason) : p.reason}</dd>
        <dt>{t("proposalHash")}</dt>
        <dd className="mono">{p.hash}</dd>
        <dt>{t("expires")}</dt>
        <dd>
          <DateTime value={p.expiresAt} />
        </dd>
      </dl>
      <h4>{t("approvals")}</h4>
      {p.approvals.length === 0 ? (
        <p className="muted">{t("noApprovals")}</p>
      ) : (
        <ul>
          {p.approvals.map((a) => (
            <li key={a.id} data-auth-method={a.authMethod} data-passkey-check={a.passkeyCheck}>
              {t("approvedBy", {
                name: a.approverName,
                method: tm.has(a.authMethod) ? tm(a.authMethod) : a.authMethod,
              })}{" "}
              — <DateTime value={a.createdAt} /> —{" "}
              {a.passkeyCheck === "failed"
                ? t("passkey_failed", { reason: a.passkeyDetail ?? "" })
                : t(`passkey_${a.passkeyCheck}`)}
            </li>
          ))}
        </ul>
      )}
      <h4>{t("execution")}</h4>
      {p.execution ? (
        <dl className="facts" data-execution-status={p.execution.status}>
          <dt>{t("status")}</dt>
          <dd title={p.execution.status}>{tx.has(p.execution.status) ? tx(p.execution.status) : p.execution.status}</dd>
          <dt>{t("idempotencyKey")}</dt>
          <dd className="mono">{p.execution.idempotencyKey}</dd>
          <dt>{t("providerRefund")}</dt>
          <dd className="mono">{p.execution.providerRefundId ?? "—"}</dd>
          <dt>{t("attempts")}</dt>
          <dd>{p.execution.attempts}</dd>
          <dt>{t("reconciliations")}</dt>
          <dd>{p.execution.reconciliations}</dd>
        </dl>
      ) : (
        <p className="muted">{t("noExecution")}</p>
      )}
      {mayDownloadEvidence ? (
        <p>
          <a href={`/api/audit/evidence/${p.id}`} download>
            {t("evidence")}
          </a>{" "}
          · <Link href={`/audit/evidence/${p.id}`}>{ta("evidenceSummaryLink")}</Link>
        </p>
      ) : null}
    </article>
  );
}
