"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { useTranslations } from "next-intl";
import type { ExecutionDetail } from "@/lib/schemas/execution-dto";
import { Money } from "@/components/domain/money";
import { StatusBadge } from "@/components/domain/status-badge";
import { CopyButton } from "@/components/ui/copy-button";
import { DateTime } from "@/components/ui/date-time";
import { CardSection } from "@/components/page/section";
import { cn } from "@/lib/utils";
import { byShop } from "../../_components/execution-cells";
import { FailureReason } from "../../_components/failure-reason";
import { ActionSteps } from "./action-steps";
import { KindFields } from "./kind-fields";

const mono = "font-mono text-xs break-all";

function Field({ label, children, wide = false }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={cn("grid min-w-0 gap-0.5", wide && "sm:col-span-2")}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="m-0 min-w-0">{children}</dd>
    </div>
  );
}

/** A key in full (wrapped anywhere), with a button that copies it; `label` names it for the button. */
function CopiableKey({ value, label, testId }: { value: string; label: string; testId: string }) {
  return (
    <span className="flex items-start gap-1">
      <span className={mono} data-testid={testId}>
        {value}
      </span>
      <CopyButton value={value} label={label} />
    </span>
  );
}

/**
 * What the execution does, for which order and why, with links to the proposal and its trace: a refund's amount and
 * recipient, or another kind's name and fields (from the hashed params, as the DTO carries them).
 */
export function ExecutionSummary({ d }: { d: ExecutionDetail }) {
  const td = useTranslations("executions.detail");
  const tr = useTranslations("reasons");
  const tk = useTranslations("paymentMethods");
  const tkind = useTranslations("kinds");
  const p = d.proposal;
  const refund =
    p.amountMinor !== null && p.currency !== null ? { amountMinor: p.amountMinor, currency: p.currency } : null;
  return (
    <CardSection
      titleId="exec-summary-title"
      title={refund ? td("summaryTitle") : td("kindSummaryTitle")}
      headingClassName="mb-3"
    >
      <dl className="m-0 grid gap-3 sm:grid-cols-2">
        {refund ? (
          <>
            <Field label={td("amount")}>
              <span className="text-lg font-semibold">
                <Money minor={refund.amountMinor} currency={refund.currency} exact />
              </span>
            </Field>
            <Field label={td("recipient")}>
              {p.recipientDisplay}
              <span className="block text-xs text-muted-foreground">
                {p.recipientHolder} ·{" "}
                {p.recipientKind && tk.has(p.recipientKind) ? tk(p.recipientKind) : p.recipientKind}
              </span>
            </Field>
          </>
        ) : (
          <>
            <Field wide label={td("kind")}>
              <span className="text-lg font-semibold" data-kind={d.kind}>
                {tkind.has(`${d.kind}.title`) ? tkind(`${d.kind}.title`) : d.kind}
              </span>
            </Field>
            {p.fields.length ? (
              <Field wide label={td("kindFields")}>
                <KindFields kind={d.kind} fields={p.fields} />
              </Field>
            ) : null}
          </>
        )}
        <Field label={td("order")}>{p.orderNumber}</Field>
        <Field label={td("customer")}>
          {p.customerName ?? "—"}
          {p.customerId ? <span className={cn("block text-muted-foreground", mono)}>{p.customerId}</span> : null}
        </Field>
        <Field label={td("reason")}>{tr.has(p.reason) ? tr(p.reason) : p.reason}</Field>
        <Field label={td("proposalStatus")}>
          <StatusBadge status={p.status} />
        </Field>
      </dl>
      <p className="mt-4 mb-0 flex flex-wrap gap-x-4 gap-y-2 text-sm">
        <Link href={`/proposals/${p.id}`}>{td("openProposal")}</Link>
        <Link href={`/audit/traces/${encodeURIComponent(p.traceId)}`} prefetch={false}>
          {td("openTrace")}
        </Link>
      </p>
      <ActionSteps d={d} />
    </CardSection>
  );
}

/** The execution's times, in order, each under the label of its own name (the later ones once they happened). */
const times = ["createdAt", "lastAttemptAt", "settledAt"] as const;

/** The execution's keys (with copy buttons), counters, times, and why it failed if it did. */
export function ExecutionKeys({ d }: { d: ExecutionDetail }) {
  const t = useTranslations("executions");
  const td = useTranslations("executions.detail");
  return (
    <CardSection titleId="exec-keys-title" title={td("executionTitle")} headingClassName="mb-3">
      <dl className="m-0 grid gap-3 sm:grid-cols-2">
        <Field wide label={td("idempotencyKey")}>
          <CopiableKey value={d.idempotencyKey} label={t("idempotencyKeyName")} testId="idempotency-key" />
        </Field>
        {byShop(d) ? (
          // A kind carried out by the shop: the shop's reference for the action.
          <Field wide label={td("actionReference")}>
            {d.actionReference ? (
              <CopiableKey value={d.actionReference} label={td("actionReference")} testId="action-reference" />
            ) : (
              <span className="text-muted-foreground">{td("notYet")}</span>
            )}
          </Field>
        ) : (
          <Field wide label={td("providerRefundId")}>
            {d.providerRefundId ? (
              <CopiableKey value={d.providerRefundId} label={td("providerRefundId")} testId="provider-refund-id" />
            ) : (
              <span className="text-muted-foreground">{td("notYet")}</span>
            )}
          </Field>
        )}
        <Field label={byShop(d) ? td("attemptsShop") : td("attempts")}>{d.attempts}</Field>
        <Field label={td("reconciliations")}>{d.reconciliations}</Field>
        {times.map((time) => {
          const at = d[time];
          return at ? (
            <Field key={time} label={td(time)}>
              <DateTime value={at} />
            </Field>
          ) : null;
        })}
        {d.failureReason ? (
          <Field label={td("failureReason")}>
            <FailureReason reason={d.failureReason} />
          </Field>
        ) : null}
        {d.lastError ? (
          <Field wide label={td("lastError")}>
            <span className={mono} data-testid="last-error">
              {d.lastError}
            </span>
          </Field>
        ) : null}
      </dl>
    </CardSection>
  );
}
