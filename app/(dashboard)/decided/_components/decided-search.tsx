"use client";

import { useQueryStates } from "nuqs";
import { useTranslations } from "next-intl";
import { decidedStatuses } from "@/lib/domain/proposal-state";
import { anyOption, LabelledSelect } from "@/components/forms/labelled-select";
import { FilterBar, SearchInput, useSearchDraft } from "@/components/forms/search-filter";
import { Button } from "@/components/ui/button";
import { decidedParams } from "./decided-params";

/** The search form; submitting writes to the URL and the server page renders the results. */
export function DecidedSearch() {
  const t = useTranslations("decided");
  const ts = useTranslations("status");
  const [params, setParams] = useQueryStates(decidedParams, { shallow: false });
  const draft = useSearchDraft(params.q, (q) => void setParams({ q, page: null }));
  return (
    <FilterBar onSubmit={draft.submit} className="mb-4">
      <SearchInput id="decided-q" label={t("search")} placeholder={t("searchHint")} draft={draft} />
      <LabelledSelect
        id="decided-status"
        label={t("status")}
        value={params.status ?? ""}
        onChange={(v) => void setParams({ status: (v || null) as (typeof decidedStatuses)[number] | null, page: null })}
        options={anyOption(t("anyStatus"), decidedStatuses, ts)}
      />
      <Button type="submit">{t("submit")}</Button>
    </FilterBar>
  );
}
