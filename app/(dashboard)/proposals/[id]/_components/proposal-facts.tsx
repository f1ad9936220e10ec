"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { shortTraceId } from "@/lib/domain/short-trace-id";
import { proposalStatus } from "@/lib/domain/proposal-state";
import type { ReactNode } from "react";
import type { ProposalPage } from "@/lib/schemas/proposal-dto";
import { Countdown } from "@/components/domain/countdown";
import { Section } from "@/components/page/section";
import { ProposalHash } from "@/components/domain/proposal-hash";
import { CopyButton } from "@/components/ui/copy-button";
import { DateTime } from "@/components/ui/date-time";

// What every proposal page shows the same way, whatever the kind: who asked, the hash, the trace (facts of a <dl>),
// and the approvals given (items of the outcome's list).

/** `<dt>/<dd>` pairs: who asked (agent and channel, or staff), the proposal hash, the trace with a copy button. */
export function RequestFacts({ p }: { p: Pick<ProposalPage, "requestedBy" | "hash" | "traceId"> }) {
  const t = useTranslations("proposal");
  return (
    <>
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
        {/* Opening a trace is an audited lookup (audit:view_trace): never prefetched, so only a person's click counts. */}
        <Link href={`/audit/traces/${encodeURIComponent(p.traceId)}`} prefetch={false} className="mono break-all">
          {t("traceLink", { trace: shortTraceId(p.traceId) })}
        </Link>
        <CopyButton value={p.traceId} label={t("trace")} />
      </dd>
    </>
  );
}

/** The outcome's first line: what became of it in the kind's words (`outcome.*` or `kindOutcome.*`), and when. */
export function OutcomeHeadline({
  p,
  words,
}: {
  p: Pick<ProposalPage, "status" | "decidedAt">;
  words: "outcome" | "kindOutcome";
}) {
  const t = useTranslations("proposal");
  const status = p.status === proposalStatus.pendingApproval ? proposalStatus.expired : p.status;
  return (
    <p className="m-0 text-base">
      {t(`${words}.${status}` as "outcome.expired")}
      {p.decidedAt ? (
        <>
          {" "}
          <span className="text-muted-foreground">
            (<DateTime value={p.decidedAt} />)
          </span>
        </>
      ) : null}
    </p>
  );
}

/** One list item per approval: who, how they confirmed it was them, when. */
export function ApprovalItems({ approvals }: { approvals: ProposalPage["approvals"] }) {
  const t = useTranslations("proposal");
  const tm = useTranslations("authMethods");
  return approvals.map((a) => (
    <li key={a.id}>
      {t("approvedBy", { name: a.approver, method: tm.has(a.authMethod) ? tm(a.authMethod) : a.authMethod })} —{" "}
      <DateTime value={a.createdAt} />
    </li>
  ));
}

/** `<dt>/<dd>`: when it expires — a countdown while it waits, the time after. */
export function ExpiresFact({ p, waiting }: { p: Pick<ProposalPage, "expiresAt">; waiting: boolean }) {
  const t = useTranslations("proposal");
  return (
    <>
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
    </>
  );
}

/**
 * "What happened" for a proposal no longer waiting: the headline in the kind's words, the approvals, the rejection
 * (as the caller words it), the invalidation's reason, then the caller's own items (a replacement, the execution).
 */
export function OutcomeSection({
  p,
  words,
  rejection,
  children,
}: {
  p: Pick<ProposalPage, "status" | "decidedAt" | "approvals" | "invalidationReason">;
  words: "outcome" | "kindOutcome";
  rejection: ReactNode;
  children?: ReactNode;
}) {
  const t = useTranslations("proposal");
  const ti = useTranslations("invalidation");
  return (
    <Section
      titleId="outcome-title"
      title={t("whatHappened")}
      headingClassName="mt-0"
      className="panel"
      data-testid="outcome"
    >
      <OutcomeHeadline p={p} words={words} />
      <ul className="mt-3 mb-0">
        <ApprovalItems approvals={p.approvals} />
        {rejection}
        {p.invalidationReason ? (
          <li>
            {t("invalidatedWith", {
              reason: ti.has(p.invalidationReason) ? ti(p.invalidationReason) : p.invalidationReason,
            })}
          </li>
        ) : null}
        {children}
      </ul>
    </Section>
  );
}
