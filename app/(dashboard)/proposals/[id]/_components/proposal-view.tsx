"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useLocale, useNow, useTranslations } from "next-intl";
import { formatMinor } from "@/lib/domain/format-money";
import { proposalStatus } from "@/lib/domain/proposal-state";
import { proposalQuery } from "@/lib/queries/proposals";
import type { ProposalDetail } from "@/lib/schemas/proposal-dto";
import { Money } from "@/components/domain/money";
import { Countdown } from "@/components/domain/countdown";
import { ProposalHash } from "@/components/domain/proposal-hash";
import { StatusBadge } from "@/components/domain/status-badge";
import { CopyButton } from "@/components/ui/copy-button";
import { DateTime } from "@/components/ui/date-time";
import { Toaster } from "@/components/ui/sonner";
import { DecisionPanel } from "./decision-panel";
import { SupersedePanel } from "./supersede-panel";
import { useLiveInvalidation } from "@/components/realtime/use-live-invalidation";
import { SupersedeComparison } from "./supersede-comparison";
import { CommentForm } from "./comment-form";
import { useClock } from "@/components/ui/use-clock";

/** Plain words for what became of a proposal that is no longer waiting. */
function Outcome({ p }: { p: ProposalDetail }) {
  const t = useTranslations("proposal");
  const ti = useTranslations("invalidation");
  const tm = useTranslations("authMethods");
  const expiredUnnoticed = p.status === proposalStatus.pendingApproval;
  return (
    <section aria-labelledby="outcome-title" className="panel" data-testid="outcome">
      <h2 id="outcome-title" className="mt-0">
        {t("whatHappened")}
      </h2>
      <p className="m-0 text-base">
        {t(`outcome.${expiredUnnoticed ? proposalStatus.expired : p.status}` as "outcome.expired")}
        {p.decidedAt ? (
          <>
            {" "}
            <span className="text-muted-foreground">
              (<DateTime value={p.decidedAt} />)
            </span>
          </>
        ) : null}
      </p>
      <ul className="mt-3 mb-0">
        {p.approvals.map((a) => (
          <li key={a.id}>
            {t("approvedBy", { name: a.approver, method: tm.has(a.authMethod) ? tm(a.authMethod) : a.authMethod })} —{" "}
            <DateTime value={a.createdAt} />
          </li>
        ))}
        {p.rejection ? <Rejection p={p} /> : null}
        {p.invalidationReason ? (
          <li>
            {t("invalidatedWith", {
              reason: ti.has(p.invalidationReason) ? ti(p.invalidationReason) : p.invalidationReason,
            })}
          </li>
        ) : null}
        {p.supersededBy ? (
          <li>
            {t("replacedBy")} <Link href={`/proposals/${p.supersededBy.id}`}>{t("openReplacement")}</Link> (
            <Money minor={p.supersededBy.amountMinor} currency={p.currency} />)
          </li>
        ) : null}
      </ul>
    </section>
  );
}

/** Who rejected it and when, the message the customer got, and the staff-only internal note. */
function Rejection({ p }: { p: ProposalDetail }) {
  const t = useTranslations("proposal");
  const r = p.rejection;
  if (!r) return null;
  return (
    <>
      <li data-testid="rejected-by">
        {t("rejectedBy", { name: r.by ?? "—" })}
        {r.at ? (
          <>
            {" — "}
            <DateTime value={r.at} />
          </>
        ) : null}
      </li>
      {r.customerMessage ? (
        <li data-testid="customer-message">{t("customerMessage", { message: r.customerMessage })}</li>
      ) : null}
      {r.internalNote ? <li data-testid="internal-note">{t("internalNote", { note: r.internalNote })}</li> : null}
    </>
  );
}

export function ProposalView({ id }: { id: string }) {
  const t = useTranslations("proposal");
  const tr = useTranslations("reasons");
  const tk = useTranslations("paymentMethods");
  const to = useTranslations("orderStatus");
  const tm = useTranslations("authMethods");
  const tc = useTranslations("comments");
  const { data: p } = useQuery(proposalQuery(id));
  useLiveInvalidation();
  const now = useNow({ updateInterval: 5_000 });
  const clock = useClock();
  const locale = useLocale();
  if (!p) return null;
  const m = (minor: number) => <Money minor={minor} currency={p.currency} />;
  const waiting = p.status === proposalStatus.pendingApproval && new Date(p.expiresAt).getTime() > now.getTime();
  return (
    <div className="stack">
      {/* Toasts are only raised here (decisions); mounting them per page keeps sonner off the queue's cold load. */}
      <Toaster richColors closeButton position="bottom-right" />
      <p className="m-0">
        <Link href="/queue">← {t("back")}</Link>
      </p>
      <h1 className="flex flex-wrap items-center gap-2">
        {t("title", { order: p.order.number })} <StatusBadge status={p.status} />
      </h1>

      {p.supersedes ? <SupersedeComparison before={p.supersedes} after={p} /> : null}

      {p.previouslyRejected ? (
        // The same order was refused before: the reviewer sees who, when and why before deciding again.
        <p
          className="m-0 rounded-md border border-warning-foreground/30 bg-warning px-3 py-2 text-sm text-warning-foreground"
          data-testid="previously-rejected"
        >
          {t("previouslyRejected", {
            by: p.previouslyRejected.by ?? "—",
            at: p.previouslyRejected.at ? clock.instant(new Date(p.previouslyRejected.at)) : "—",
            reason: p.previouslyRejected.reason ?? "—",
          })}{" "}
          <Link href={`/proposals/${p.previouslyRejected.proposalId}`}>{t("openEarlier")}</Link>
        </p>
      ) : null}
      {p.possibleDuplicateOf ? (
        <p className="m-0 rounded-md border bg-card px-3 py-2 text-sm" data-testid="duplicate-of">
          {t("duplicateOfPlain", {
            kind: t(`duplicateKind.${p.possibleDuplicateOf.kind}`),
            order: p.possibleDuplicateOf.orderNumber,
            amount: formatMinor(p.possibleDuplicateOf.amountMinor, p.currency, locale),
          })}
        </p>
      ) : null}

      {waiting ? null : <Outcome p={p} />}

      <div className="grid-2">
        <section aria-labelledby="summary-title" className="panel">
          <h2 id="summary-title" className="mt-0">
            {waiting ? t("summary") : t("summaryDone")}
          </h2>
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
            <dd>{tk.has(p.recipient.kind) ? tk(p.recipient.kind) : p.recipient.kind}</dd>
            <dt>{t("reference")}</dt>
            <dd className="mono">{p.recipient.ref}</dd>
            <dt>{t("expires")}</dt>
            <dd data-testid="expires" data-expires-at={p.expiresAt}>
              {waiting ? (
                <>
                  <Countdown until={p.expiresAt} showAbsolute={false} /> · <DateTime value={p.expiresAt} />
                </>
              ) : (
                <DateTime value={p.expiresAt} />
              )}
            </dd>
            <dt>{t("reason")}</dt>
            <dd>{tr.has(p.reason) ? tr(p.reason) : p.reason}</dd>
            <dt>{t("requestedBy")}</dt>
            <dd>
              {p.requestedBy.kind === "agent"
                ? t("agentVia", { name: p.requestedBy.name, channel: p.requestedBy.channel ?? "—" })
                : t("staffBy", { name: p.requestedBy.name })}
            </dd>
            <dt>{t("hash")}</dt>
            <dd>
              <ProposalHash hash={p.hash} />
            </dd>
            <dt>{t("trace")}</dt>
            <dd className="flex flex-wrap items-center gap-1">
              <Link href={`/audit/traces/${encodeURIComponent(p.traceId)}`} className="mono break-all">
                {t("traceLink", { trace: p.traceId.slice(0, 16) })}
              </Link>
              <CopyButton value={p.traceId} label={t("trace")} />
            </dd>
          </dl>
          <p className="muted mb-0">
            {t("approvalsProgress", { count: p.approvals.length, required: p.requiredApprovals })}
          </p>
          <DecisionPanel proposal={p} />
          <SupersedePanel proposal={p} />
        </section>

        <section aria-labelledby="order-title" className="panel">
          <h2 id="order-title" className="mt-0">
            {t("order")} {p.order.number}
          </h2>
          <dl className="facts">
            <dt>{t("customer")}</dt>
            <dd>{p.order.customer.name}</dd>
            <dt>{t("orderStatus")}</dt>
            <dd>{to.has(p.order.status) ? to(p.order.status) : p.order.status}</dd>
            <dt>{t("captured")}</dt>
            <dd>{m(p.order.capturedMinor)}</dd>
            <dt>{t("refunded")}</dt>
            <dd>{m(p.derivation.refundedMinor)}</dd>
            <dt>{t("otherOpen")}</dt>
            <dd>{m(p.derivation.otherOpenMinor)}</dd>
          </dl>
          {waiting ? (
            <>
              <h3>{t("derivation")}</h3>
              <p data-testid="derivation">
                {t("derivationText", {
                  captured: String(p.derivation.capturedMinor),
                  refunded: String(p.derivation.refundedMinor),
                  open: String(p.derivation.otherOpenMinor),
                  amount: String(p.amountMinor),
                })}{" "}
                <span className="muted">({t("minorUnitsOf", { currency: p.currency })})</span>
              </p>
              {p.derivation.elsewhereMinor > 0 ? (
                <p data-testid="derivation-elsewhere">
                  {t("derivationElsewhere")} <strong>{m(p.derivation.elsewhereMinor)}</strong>
                </p>
              ) : null}
            </>
          ) : (
            // The figures above are today's; the derivation at preparation time is what the hash bound.
            <p className="muted text-sm">{t("derivationFinished")}</p>
          )}
          <h3>{t("items")}</h3>
          <ul>
            {p.order.items.map((i) => (
              <li key={i.sku}>
                {i.quantity} × {i.name} — {m(i.unitMinor)}
              </li>
            ))}
          </ul>
          {p.order.refunds.length ? (
            <>
              <h3>{t("orderRefunds")}</h3>
              <ul>
                {p.order.refunds.map((r) => (
                  <li key={r.id} className="flex flex-wrap items-center gap-1">
                    {m(r.amountMinor)} · {r.status} ·{" "}
                    {r.origin === "external" ? <span className="badge flag">{t("refundedElsewhere")}</span> : null}{" "}
                    <DateTime value={r.createdAt} /> <code className="mono text-xs">{r.id.slice(0, 8)}…</code>
                    <CopyButton value={r.id} label={t("refundId")} />
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </section>
      </div>

      <section aria-labelledby="history-title" className="panel">
        <h2 id="history-title" className="mt-0">
          {t("history")}
        </h2>
        {/* One history in time order: creation, approvals, comments, the rejection (each with its time and zone). */}
        <ol>
          {[
            {
              at: p.createdAt,
              key: "created",
              node: (
                <>
                  {t("created")}: <DateTime value={p.createdAt} />
                </>
              ),
            },
            ...p.approvals.map((a) => ({
              at: a.createdAt,
              key: `approval-${a.id}`,
              node: (
                <>
                  {t("approvedBy", {
                    name: a.approver,
                    method: tm.has(a.authMethod) ? tm(a.authMethod) : a.authMethod,
                  })}{" "}
                  — <DateTime value={a.createdAt} />
                </>
              ),
            })),
            ...p.comments.map((c) => ({
              at: c.createdAt,
              key: `comment-${c.id}`,
              node: (
                <div data-comment-id={c.id}>
                  {tc("by", { name: c.author })} — <DateTime value={c.createdAt} />
                  <p className="m-0 mt-1 whitespace-pre-wrap break-words">{c.body}</p>
                </div>
              ),
            })),
            ...(p.rejection
              ? [
                  {
                    at: p.rejection.at ?? p.decidedAt ?? p.createdAt,
                    key: "rejection",
                    node: (
                      <>
                        {t("rejectedBy", { name: p.rejection.by ?? "—" })}
                        {p.rejection.at ? (
                          <>
                            {" — "}
                            <DateTime value={p.rejection.at} />
                          </>
                        ) : null}
                      </>
                    ),
                  },
                ]
              : []),
          ]
            .sort((a, b) => Date.parse(a.at) - Date.parse(b.at))
            .map((e) => (
              <li key={e.key}>{e.node}</li>
            ))}
        </ol>
        {p.viewer.canComment ? <CommentForm proposalId={p.id} /> : null}
        <details>
          <summary className="cursor-pointer">{t("hashedJson")}</summary>
          <pre className="mono text-xs whitespace-pre-wrap break-all">{p.canonicalJson}</pre>
        </details>
      </section>
    </div>
  );
}
