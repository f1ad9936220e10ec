import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { pageActor } from "@/lib/server/auth/page";
import { orNotFound } from "@/app/(dashboard)/or-not-found";
import { getEvidenceSummary } from "@/lib/server/audit/evidence-summary";
import { DateTime } from "@/components/ui/date-time";
import { Money } from "@/components/domain/money";
import { titleMetadata } from "@/components/page/title-metadata";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ proposalId: string }> };

export const generateMetadata = titleMetadata("audit", "evidenceTitle");

/** The evidence pack in words, beside its JSON download (auditors, admins). */
export default async function EvidencePage({ params }: Props) {
  const actor = await pageActor("audit:read");
  const { proposalId } = await params;
  const t = await getTranslations("audit");
  const ts = await getTranslations("status");
  const tx = await getTranslations("executions.states");
  const tm = await getTranslations("authMethods");
  const tr = await getTranslations("reasons");
  const tk = await getTranslations("paymentMethods");
  const s = await orNotFound(getEvidenceSummary(actor, proposalId));
  const p = s.proposal;
  const label = (tr: { has: (k: string) => boolean; (k: string): string }, code: string | null) =>
    code ? (tr.has(code) ? tr(code) : code) : "—";
  return (
    <section aria-labelledby="evidence-title" className="grid min-w-0 gap-6">
      <p className="m-0">
        <Link href={`/audit/traces/${encodeURIComponent(p.traceId)}`} prefetch={false} className="underline">
          {t("evidenceBack")}
        </Link>
      </p>
      <div>
        <h1 id="evidence-title">{t("evidenceTitle")}</h1>
        <p className="lead break-all">{t("evidenceLead", { id: p.id })}</p>
      </div>

      <div
        role="status"
        data-verification={s.verification.ok ? "ok" : "failed"}
        className={`rounded-xl border p-4 ${s.verification.ok ? "bg-card" : "border-2 border-destructive bg-card"}`}
      >
        <p className="m-0 font-semibold">
          {s.verification.ok ? t("evidenceVerified", { checks: s.verification.checks }) : t("evidenceNotVerified")}
        </p>
        {s.verification.failed.length ? (
          <ul className="mt-2 mb-0">
            {s.verification.failed.map((c) => (
              <li key={c.name} className="break-words">
                {c.name}
                {c.detail ? ` — ${c.detail}` : ""}
              </li>
            ))}
          </ul>
        ) : null}
        <p className="m-0 mt-2 text-sm">
          <a href={`/api/audit/evidence/${p.id}`} download className="underline">
            {t("evidenceDownload")}
          </a>{" "}
          · <span className="text-muted-foreground">{t("evidenceHowToVerify")}</span>
        </p>
      </div>

      <dl
        className="m-0 grid min-w-0 gap-x-6 gap-y-3 rounded-xl border bg-card p-4 sm:grid-cols-[max-content_1fr]"
        aria-label={t("evidenceFacts")}
      >
        <dt className="font-medium">{t("evidenceStatus")}</dt>
        <dd className="m-0" data-status={p.status}>
          {label(ts, p.status)}
        </dd>
        <dt className="font-medium">{t("evidenceAmount")}</dt>
        <dd className="m-0">
          {p.amountMinor !== null && p.currency ? <Money minor={p.amountMinor} currency={p.currency} exact /> : "—"}
        </dd>
        <dt className="font-medium">{t("evidenceRecipient")}</dt>
        <dd className="m-0">
          {p.recipientHolder ?? "—"} · {label(tk, p.recipientKind)}
        </dd>
        <dt className="font-medium">{t("evidenceReason")}</dt>
        <dd className="m-0">{label(tr, p.reason)}</dd>
        <dt className="font-medium">{t("evidenceHash")}</dt>
        <dd className="m-0 font-mono text-xs break-all" data-testid="evidence-hash">
          {p.hash}
        </dd>

        <dt className="font-medium">{t("evidencePrepared")}</dt>
        <dd className="m-0" data-testid="evidence-prepared">
          {s.preparedBy ? (
            <>
              <span title={s.preparedBy.actorId ?? undefined}>{s.preparedBy.name ?? s.preparedBy.actorId ?? "—"}</span>
              {s.preparedBy.model ? ` · ${s.preparedBy.model}` : ""} · <DateTime value={s.preparedBy.at} />
            </>
          ) : (
            "—"
          )}
        </dd>

        <dt className="font-medium">{t("evidenceApprovals", { required: p.requiredApprovals ?? 1 })}</dt>
        <dd className="m-0">
          {s.approvals.length === 0 ? (
            t("evidenceNoApprovals")
          ) : (
            <ul className="m-0 grid gap-1 pl-4">
              {s.approvals.map((a) => (
                <li key={`${a.approverId}-${a.at}`} data-approver-id={a.approverId} data-auth-method={a.authMethod}>
                  <span title={a.approverId}>{a.name ?? a.approverId}</span> · {label(tm, a.authMethod)}
                  {a.passkey
                    ? ` (${t("evidencePasskey", { name: a.passkey.name ?? a.passkey.credentialId.slice(0, 12) })})`
                    : ""}{" "}
                  · <DateTime value={a.at} />
                </li>
              ))}
            </ul>
          )}
        </dd>

        {s.rejections.length ? (
          <>
            <dt className="font-medium">{t("evidenceRejected")}</dt>
            <dd className="m-0">
              {s.rejections.map((r) => (
                <span key={r.at} className="block">
                  <span title={r.actorId ?? undefined}>{r.name ?? r.actorId ?? "—"}</span> · <DateTime value={r.at} />
                </span>
              ))}
            </dd>
          </>
        ) : null}

        <dt className="font-medium">{t("evidenceExecution")}</dt>
        <dd className="m-0" data-testid="evidence-execution">
          {s.execution ? (
            <>
              {label(tx, s.execution.status)} · {t("evidenceAttempts", { count: s.execution.attempts })}
              {s.execution.providerRefundId ? (
                <span className="block font-mono text-xs break-all">
                  {t("evidenceProviderRefund")}: {s.execution.providerRefundId}
                </span>
              ) : null}
              {s.refunds.map((r) => (
                <span key={r.id} className="block">
                  <Money minor={r.amountMinor} currency={r.currency} exact /> · {r.status}
                </span>
              ))}
              {s.execution.settledAt ? (
                <span className="block">
                  {t("evidenceSettled")} <DateTime value={s.execution.settledAt} />
                </span>
              ) : null}
            </>
          ) : (
            t("evidenceNotExecuted")
          )}
        </dd>

        <dt className="font-medium">{t("evidenceLog")}</dt>
        <dd className="m-0" data-testid="evidence-log">
          {s.checkpoint
            ? t("evidenceCheckpoint", { size: s.checkpoint.treeSize, keyId: s.checkpoint.keyId })
            : t("evidenceNoCheckpoint")}
          {s.checkpoint ? (
            <>
              {" "}
              <DateTime value={s.checkpoint.issuedAt} />
            </>
          ) : null}
          <span className="block text-sm text-muted-foreground">
            {t("evidenceEvents", { total: s.events.total, proven: s.events.proven })}
          </span>
        </dd>
      </dl>
      <p className="m-0 text-sm text-muted-foreground">
        {t("evidenceGenerated")} <DateTime value={s.generatedAt} />
      </p>
    </section>
  );
}
