"use client";

import { AuditFiltersForm } from "./audit-filters-form";
import { AuditResults } from "./audit-results";
import { useAuditLabels } from "./audit-cells";
import { useAuditSearch } from "./use-audit-search";

/** The audit search: its state lives in the URL (use-audit-search.ts); the form and the results render it. */
export function AuditSearch() {
  const state = useAuditSearch();
  const labels = useAuditLabels();
  return (
    <>
      <AuditFiltersForm state={state} labels={labels} />
      <AuditResults state={state} labels={labels} />
    </>
  );
}
