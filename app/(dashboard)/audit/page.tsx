import type { SearchParams } from "nuqs/server";
import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { auditKeys } from "@/lib/queries/audit";
import { pageActor } from "@/lib/server/auth/page";
import { searchAuditEvents } from "@/lib/server/audit/search-audit-events";
import { AuditSearch } from "./_components/audit-search";
import { ChainPanel } from "./_components/chain-panel";
import { auditFilterKeys } from "@/lib/domain/audit-filters";
import { auditFiltersOf, loadAuditParams } from "./_components/audit-params";
import { titleMetadata } from "@/components/page/title-metadata";

export const dynamic = "force-dynamic";

export const generateMetadata = titleMetadata("audit");

export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await loadAuditParams(searchParams);
  const bareTrace = params.traceId?.trim() ?? "";
  // A bare traceId (the proposal page's "trace" link, the Trace box) is the trace page, open to every role
  // that may look up one trace; anything else is the auditors' search.
  if (bareTrace && auditFilterKeys.every((k) => k === "traceId" || !params[k])) {
    await pageActor("audit:trace");
    redirect(`/audit/traces/${encodeURIComponent(bareTrace)}`);
  }
  const actor = await pageActor("audit:read");
  const t = await getTranslations("audit");
  // The URL's zone (the browser puts its own there on first visit); without one, UTC until it does.
  const filters = auditFiltersOf(params, params.tz ?? "UTC");
  // Seed the client cache under the key the client hook uses: one audited search, no refetch. With no
  // filter this is the default view, the tenant's newest events. A refused or invalid search leaves the
  // cache empty: the client asks again and shows the error in place.
  const client = new QueryClient();
  const first = await searchAuditEvents(actor, filters).catch(() => null);
  if (first) client.setQueryData(auditKeys.search(filters), { pages: [first], pageParams: [undefined] });
  return (
    <section aria-labelledby="audit-title" className="grid min-w-0 gap-6">
      <div>
        <h1 id="audit-title">{t("title")}</h1>
        <p className="lead">{t("description")}</p>
      </div>
      <HydrationBoundary state={dehydrate(client)}>
        <AuditSearch />
      </HydrationBoundary>
      <ChainPanel actor={actor} />
    </section>
  );
}
