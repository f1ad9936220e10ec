import type { Metadata } from "next";
import { shortTraceId } from "@/lib/domain/short-trace-id";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { can } from "@/lib/domain/permissions";
import { auditCodeKey } from "@/lib/domain/audit-actions";
import { splitOffset } from "@/lib/domain/clock";
import { pageActor } from "@/lib/server/auth/page";
import { getAuditTrace } from "@/lib/server/audit/get-audit-trace";
import { InputField } from "@/components/forms/field";
import { DateTime } from "@/components/ui/date-time";
import { Section } from "@/components/page/section";
import { holdTrace } from "../../actions";
import { TraceProposal } from "./_components/trace-proposal";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ traceId: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { traceId } = await params;
  return { title: (await getTranslations("trace"))("title", { traceId: shortTraceId(safeDecode(traceId), 64) }) };
}

/** A malformed escape in the URL is searched as typed, never a 500. */
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export default async function TracePage({ params }: Props) {
  // Anyone who may look up one trace (reviewers, ops, auditors, admins); evidence packs stay with auditors.
  const actor = await pageActor("audit:trace");
  const { traceId } = await params;
  const t = await getTranslations("trace");
  const ta = await getTranslations("audit");
  const tm = await getTranslations("authMethods");
  // Plain words for codes, the code itself on hover (and for anything without a name).
  const plain = (kind: "actions" | "outcomes", code: string) =>
    ta.has(`${kind}.${auditCodeKey(code)}`) ? ta(`${kind}.${auditCodeKey(code)}`) : code;
  const trace = await getAuditTrace(actor, safeDecode(traceId));
  const isAdmin = can(actor.roles, "admin:manage");
  const mayDownloadEvidence = can(actor.roles, "audit:read");
  return (
    <section aria-labelledby="trace-title" className="stack">
      {can(actor.roles, "audit:read") ? (
        <p>
          <Link href="/audit">{t("back")}</Link>
        </p>
      ) : null}
      <h1 id="trace-title" className="mono">
        {t("title", { traceId: trace.traceId })}
      </h1>
      {trace.startedAt ? (
        <p className="muted">
          {t("started")} <DateTime value={trace.startedAt} />
        </p>
      ) : null}
      {trace.steps.length ? (
        <p>
          {t("export")}{" "}
          <a href={`/api/audit/traces/${encodeURIComponent(trace.traceId)}/export?format=csv`} download>
            CSV
          </a>{" "}
          ·{" "}
          <a href={`/api/audit/traces/${encodeURIComponent(trace.traceId)}/export?format=json`} download>
            JSON
          </a>
        </p>
      ) : null}

      {trace.proposals.length ? (
        <Section titleId="trace-proposals" title={t("proposals")} className="stack">
          {trace.proposals.map((p) => (
            <TraceProposal key={p.id} p={p} mayDownloadEvidence={mayDownloadEvidence} />
          ))}
        </Section>
      ) : null}

      <Section titleId="trace-timeline" title={t("timeline")} className="stack">
        {trace.steps.length === 0 ? (
          <div className="panel">{t("empty")}</div>
        ) : (
          <ol aria-label={t("timeline")} className="stack">
            {trace.steps.map((s) => (
              <li key={s.id} className="panel" data-stage={s.stage} data-action={s.action} data-outcome={s.outcome}>
                <p>
                  <strong>{t(`stage_${s.stage}`)}</strong> · <span title={s.action}>{plain("actions", s.action)}</span>{" "}
                  · <span title={s.outcome}>{plain("outcomes", s.outcome)}</span> · <DateTime value={s.occurredAt} /> ·{" "}
                  <span className="muted" title={`${s.deltaMs} ms`}>
                    {t("delta", splitOffset(s.deltaMs))}
                  </span>
                </p>
                <p className="muted">
                  {t("actor")}: {ta.has(`actorTypes.${s.actorType}`) ? ta(`actorTypes.${s.actorType}`) : s.actorType}
                  {s.actorName ? (
                    <span title={s.actorId ?? undefined}> {s.actorName}</span>
                  ) : s.actorId ? (
                    <span className="mono"> {s.actorId}</span>
                  ) : null}{" "}
                  · {t("auth")}: {s.authMethod ? (tm.has(s.authMethod) ? tm(s.authMethod) : s.authMethod) : "—"}
                  {s.model ? ` · ${s.model}` : ""}
                  {s.proposalHash ? ` · ${s.proposalHash.slice(0, 12)}…` : ""}
                </p>
                <details>
                  <summary>{t("details")}</summary>
                  <pre className="mono" style={{ whiteSpace: "pre-wrap" }}>
                    {JSON.stringify(s.data, null, 2)}
                  </pre>
                  <p className="mono muted">
                    {t("hash")}: {s.hash}
                  </p>
                </details>
              </li>
            ))}
          </ol>
        )}
      </Section>

      <Section titleId="trace-hold" title={t("legalHold")} className="panel stack">
        {trace.legalHold ? (
          <p>
            {t("held", { reason: trace.legalHold.reason })} <DateTime value={trace.legalHold.createdAt} />
          </p>
        ) : (
          <p className="muted">{t("notHeld")}</p>
        )}
        {isAdmin && !trace.legalHold && trace.steps.length ? (
          <form action={holdTrace}>
            <input type="hidden" name="traceId" value={trace.traceId} />
            <InputField id="hold-reason" label={t("holdReason")} name="reason" required minLength={3} maxLength={500} />
            <button type="submit">{t("hold")}</button>
          </form>
        ) : null}
      </Section>
    </section>
  );
}
