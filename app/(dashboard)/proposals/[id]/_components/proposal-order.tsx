"use client";

import { useTranslations } from "next-intl";
import type { ProposalDetail } from "@/lib/schemas/proposal-dto";
import { Money } from "@/components/domain/money";
import { CopyButton } from "@/components/ui/copy-button";
import { DateTime } from "@/components/ui/date-time";
import { Section } from "@/components/page/section";

/**
 * The order behind the proposal: today's figures, the derivation while it waits, items and refunds. The number, the
 * customer's name and the items are the hashed ones (hash v4); today's, where they differ, are shown beside them.
 */
export function ProposalOrder({ p, waiting }: { p: ProposalDetail; waiting: boolean }) {
  const t = useTranslations("proposal");
  const to = useTranslations("orderStatus");
  const m = (minor: number) => <Money minor={minor} currency={p.currency} />;
  return (
    <Section
      titleId="order-title"
      title={
        <>
          {t("order")} {p.order.number}
        </>
      }
      headingClassName="mt-0"
      className="panel"
    >
      <dl className="facts">
        <dt>{t("customer")}</dt>
        <dd>
          {p.order.customer.name}
          {p.changedSincePrepared?.customerName != null ? (
            <span className="badge flag ml-1" data-testid="customer-changed">
              {t("changedName", { name: p.changedSincePrepared.customerName })}
            </span>
          ) : null}
        </dd>
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
      {p.changedSincePrepared?.items ? (
        <div data-testid="items-changed">
          <p className="badge flag">{t("changedItems")}</p>
          <ul>
            {p.changedSincePrepared.items.map((i) => (
              <li key={i.sku}>
                {i.quantity} × {i.name} — {m(i.unitMinor)}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
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
    </Section>
  );
}
