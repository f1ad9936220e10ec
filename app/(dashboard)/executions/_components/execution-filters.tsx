"use client";

import { useQueryStates } from "nuqs";
import { useTranslations } from "next-intl";
import { executionStates, executionSorts, type ExecutionSort, type ExecutionState } from "@/lib/domain/execution-state";
import { anyOption, LabelledSelect } from "@/components/forms/labelled-select";
import { FilterBar, SearchInput, useSearchDraft } from "@/components/forms/search-filter";
import { Button } from "@/components/ui/button";
import { executionsParams } from "./executions-params";

/** Search, state filter and sort of the executions list; all three live in the URL (executions-params.ts). */
export function ExecutionFilters() {
  const t = useTranslations("executions");
  const [params, setParams] = useQueryStates(executionsParams);
  const draft = useSearchDraft(params.q, (q) => void setParams({ q }));
  const filtered = !!(params.state || params.q);

  return (
    <FilterBar onSubmit={draft.submit}>
      <SearchInput id="exec-q" label={t("searchLabel")} placeholder={t("searchHint")} maxLength={200} draft={draft} />
      <Button type="submit">{t("searchSubmit")}</Button>
      <LabelledSelect
        id="filter-state"
        label={t("filterState")}
        value={params.state ?? ""}
        onChange={(v) => void setParams({ state: (v || null) as ExecutionState | null })}
        options={anyOption(t("any"), executionStates, (s) => t(`states.${s}`))}
      />
      <LabelledSelect
        id="exec-sort"
        label={t("sort")}
        value={params.sort}
        onChange={(v) => void setParams({ sort: v as ExecutionSort })}
        options={executionSorts.map((s) => ({ value: s, label: t(`sorts.${s}`) }))}
      />
      {filtered ? (
        <Button
          type="button"
          variant="ghost"
          size="sm"
          onClick={() => {
            draft.setQ("");
            void setParams({ state: null, q: null });
          }}
        >
          {t("clearFilters")}
        </Button>
      ) : null}
    </FilterBar>
  );
}
