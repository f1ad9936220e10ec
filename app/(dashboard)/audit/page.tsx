import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { can } from "@/lib/domain/permissions";
import { auditFilterKeys } from "@/lib/schemas/audit";
import { auditKeys, type AuditFilters } from "@/lib/queries/audit";
import { pageActor } from "@/lib/server/auth/page";
import { searchAuditEvents } from "@/lib/server/audit/search-audit-events";
import { AuditResults } from "./_components/audit-results";
import { ChainPanel } from "./_components/chain-panel";

export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function AuditPage({ searchParams }: Props) {
  const raw = await searchParams;
  const bareTrace = typeof raw.traceId === "string" ? raw.traceId.trim() : "";
  const onlyTrace = bareTrace && auditFilterKeys.every((k) => k === "traceId" || !raw[k]);
  // A bare traceId (the proposal page's "trace" link, the Trace box) is the trace page, open to every role
  // that may look up one trace; anything else is the auditors' search.
  if (onlyTrace) {
    await pageActor("audit:trace");
    redirect(`/audit/traces/${encodeURIComponent(bareTrace)}`);
  }
  const actor = await pageActor("audit:read");
  const t = await getTranslations("audit");
  const filters: AuditFilters = {};
  for (const key of auditFilterKeys) {
    const v = raw[key];
    const s = (Array.isArray(v) ? v[0] : v)?.trim();
    if (s) filters[key] = s;
  }
  const active = Object.keys(filters);

  let state = null;
  if (active.length) {
    const client = new QueryClient();
    // Seed the client cache under the key the client hook uses: one audited search, no refetch.
    const first = await searchAuditEvents(actor, filters).catch(() => null);
    if (first) client.setQueryData(auditKeys.search(filters), { pages: [first], pageParams: [undefined] });
    state = dehydrate(client);
  }
  const field = (name: (typeof auditFilterKeys)[number], type = "text", hint?: string) => (
    <div className="field">
      <label htmlFor={`audit-${name}`}>{t(name)}</label>
      <input
        id={`audit-${name}`}
        name={name}
        type={type}
        defaultValue={filters[name] ?? ""}
        autoComplete="off"
        aria-describedby={hint ? `audit-${name}-hint` : undefined}
      />
      {hint ? (
        <small id={`audit-${name}-hint`} className="muted">
          {hint}
        </small>
      ) : null}
    </div>
  );
  return (
    <section aria-labelledby="audit-title" className="stack">
      <h1 id="audit-title">{t("title")}</h1>
      <p className="lead">{t("description")}</p>
      <form method="get" action="/audit" role="search" aria-label={t("searchTitle")} className="panel filters">
        {field("traceId")}
        {field("from", "datetime-local")}
        {field("to", "datetime-local")}
        {field("actor")}
        {field("action")}
        {field("outcome")}
        {field("proposalId")}
        {field("subject", "text", t("subjectHint"))}
        <div className="field">
          <button type="submit">{t("search")}</button> <a href="/audit">{t("clear")}</a>
        </div>
      </form>
      {state ? (
        <HydrationBoundary state={state}>
          <AuditResults filters={filters} />
        </HydrationBoundary>
      ) : null}
      {can(actor.roles, "admin:manage") ? <ChainPanel actor={actor} /> : null}
    </section>
  );
}
