"use client";

import { useState, type FormEvent } from "react";
import { useQueryStates } from "nuqs";
import { useTranslations } from "next-intl";
import { executionStates, executionSorts, type ExecutionSort, type ExecutionState } from "@/lib/domain/execution-state";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { NativeSelect, NativeSelectOption } from "@/components/ui/native-select";
import { executionsParams } from "./executions-params";

/** Search, state filter and sort of the executions list; all three live in the URL (executions-params.ts). */
export function ExecutionFilters() {
  const t = useTranslations("executions");
  const [params, setParams] = useQueryStates(executionsParams);
  const [q, setQ] = useState(params.q);
  const filtered = !!(params.state || params.q);

  function submit(event: FormEvent) {
    event.preventDefault();
    void setParams({ q: q.trim() || null });
  }

  return (
    <form role="search" onSubmit={submit} className="flex flex-wrap items-end gap-3">
      <div className="grid min-w-0 flex-1 basis-64 gap-1.5">
        <label htmlFor="exec-q">{t("searchLabel")}</label>
        <Input
          id="exec-q"
          type="search"
          value={q}
          maxLength={200}
          onChange={(e) => setQ(e.target.value)}
          placeholder={t("searchHint")}
        />
      </div>
      <Button type="submit">{t("searchSubmit")}</Button>
      <div className="grid gap-1.5">
        <label htmlFor="filter-state">{t("filterState")}</label>
        <NativeSelect
          id="filter-state"
          value={params.state ?? ""}
          onChange={(e) => void setParams({ state: (e.target.value || null) as ExecutionState | null })}
        >
          <NativeSelectOption value="">{t("any")}</NativeSelectOption>
          {executionStates.map((s) => (
            <NativeSelectOption key={s} value={s}>
              {t(`states.${s}`)}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <label htmlFor="exec-sort">{t("sort")}</label>
        <NativeSelect
          id="exec-sort"
          value={params.sort}
          onChange={(e) => void setParams({ sort: e.target.value as ExecutionSort })}
        >
          {executionSorts.map((s) => (
            <NativeSelectOption key={s} value={s}>
              {t(`sorts.${s}`)}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </div>
      {filtered ? (
        <Button
          type="button"
          variant="ghost"
          size="sm"
          onClick={() => {
            setQ("");
            void setParams({ state: null, q: null });
          }}
        >
          {t("clearFilters")}
        </Button>
      ) : null}
    </form>
  );
}
