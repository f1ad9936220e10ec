"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { proposalQuery } from "@/lib/queries/proposals";
import { Money } from "@/components/domain/money";
import { Countdown } from "@/components/domain/countdown";
import { ProposalHash } from "@/components/domain/proposal-hash";
import { StatusBadge } from "@/components/domain/status-badge";
import { DateTime } from "@/components/ui/date-time";
import { DecisionPanel } from "./decision-panel";
import { SupersedePanel } from "./supersede-panel";

export function ProposalView({ id }: { id: string }) {
  const t = useTranslations("proposal");
  const tr = useTranslations("reasons");
  const { data: p } = useQuery(proposalQuery(id));
  if (!p) return null;
  const m = (minor: number) => <Money minor={minor} currency={p.currency} />;
  return (
    <div className="stack">
      <p>
        <Link href="/queue">← {t("back")}</Link>
      </p>
      <h1>
        {t("title", { order: p.order.number })} <StatusBadge status={p.status} />
      </h1>

      <div className="grid-2">
        <section aria-labelledby="summary-title" className="panel">
          <h2 id="summary-title">{t("summary")}</h2>
          <dl className="facts">
            <dt>{t("amount")}</dt>
            <dd data-testid="amount">
              <strong>
                <Money minor={p.amountMinor} currency={p.currency} exact />
              </strong>
            </dd>
            <dt>{t("recipient")}</dt>
            <dd data-testid="recipient">{p.recipient.display}</dd>
            <dt>{t("holder")}</dt>
            <dd>{p.recipient.holder}</dd>
            <dt>{t("method")}</dt>
            <dd>{p.recipient.kind}</dd>
            <dt>{t("reference")}</dt>
            <dd className="mono">{p.recipient.ref}</dd>
            <dt>{t("expires")}</dt>
            <dd data-testid="expires" data-expires-at={p.expiresAt}>
              <Countdown until={p.expiresAt} /> <DateTime value={p.expiresAt} />
            </dd>
            <dt>{t("reason")}</dt>
            <dd>{tr.has(p.reason) ? tr(p.reason) : p.reason}</dd>
            <dt>{t("requestedBy")}</dt>
            <dd>{p.requestedBy.kind === "agent" ? t("agentVia", { name: p.requestedBy.name, channel: p.requestedBy.channel ?? "—" }) : t("staffBy", { name: p.requestedBy.name })}</dd>
            <dt>{t("hash")}</dt>
            <dd>
              <ProposalHash hash={p.hash} />
            </dd>
            <dt>{t("trace")}</dt>
            <dd>
              <Link href={`/audit/traces/${encodeURIComponent(p.traceId)}`} className="mono">
                {t("traceLink", { trace: p.traceId.slice(0, 16) })}
              </Link>
            </dd>
          </dl>
          <p className="muted">{t("approvalsProgress", { count: p.approvals.length, required: p.requiredApprovals })}</p>
          <DecisionPanel proposal={p} />
          <SupersedePanel proposal={p} />
        </section>

        <section aria-labelledby="order-title" className="panel">
          <h2 id="order-title">
            {t("order")} {p.order.number}
          </h2>
          <dl className="facts">
            <dt>{t("orderStatus")}</dt>
            <dd>{p.order.status}</dd>
            <dt>{t("captured")}</dt>
            <dd>{m(p.order.capturedMinor)}</dd>
            <dt>{t("refunded")}</dt>
            <dd>{m(p.derivation.refundedMinor)}</dd>
            <dt>{t("otherOpen")}</dt>
            <dd>{m(p.derivation.otherOpenMinor)}</dd>
          </dl>
          <h3>{t("derivation")}</h3>
          <p data-testid="derivation">
            {t("derivationText", {
              captured: String(p.derivation.capturedMinor),
              refunded: String(p.derivation.refundedMinor),
              open: String(p.derivation.otherOpenMinor),
              amount: String(p.amountMinor),
            })}{" "}
            <span className="muted">({p.currency})</span>
          </p>
          <h3>{t("items")}</h3>
          <ul>
            {p.order.items.map((i) => (
              <li key={i.sku}>
                {i.quantity} × {i.name} — {m(i.unitMinor)}
              </li>
            ))}
          </ul>
        </section>
      </div>

      <section aria-labelledby="history-title" className="panel">
        <h2 id="history-title">{t("history")}</h2>
        <ol>
          <li>
            {t("created")}: <DateTime value={p.createdAt} />
          </li>
          {p.supersedes ? <li>{t("supersedes", { id: p.supersedes.id })}</li> : null}
          {p.previouslyRejected ? (
            <li data-testid="previously-rejected">
              {t("previouslyRejected", { by: p.previouslyRejected.by ?? "—", at: p.previouslyRejected.at ?? "—", reason: p.previouslyRejected.reason ?? "—" })}
            </li>
          ) : null}
          {p.possibleDuplicateOf ? (
            <li data-testid="duplicate-of">
              {t("duplicateOf", { kind: p.possibleDuplicateOf.kind, id: p.possibleDuplicateOf.id, order: p.possibleDuplicateOf.orderNumber, amount: String(p.possibleDuplicateOf.amountMinor) })}
            </li>
          ) : null}
          {p.approvals.map((a) => (
            <li key={a.id}>
              {t("approvedBy", { name: a.approver, method: a.authMethod })} — <DateTime value={a.createdAt} />
            </li>
          ))}
          {p.rejectionReason ? <li>{t("rejectedWith", { reason: p.rejectionReason })}</li> : null}
          {p.invalidationReason ? <li>{t("invalidatedWith", { reason: p.invalidationReason })}</li> : null}
          {p.supersededBy ? <li>{t("supersededBy", { id: p.supersededBy.id })}</li> : null}
        </ol>
        <details>
          <summary>{t("hash")}: JSON</summary>
          <pre className="mono" style={{ whiteSpace: "pre-wrap" }}>
            {p.canonicalJson}
          </pre>
        </details>
      </section>
    </div>
  );
}
