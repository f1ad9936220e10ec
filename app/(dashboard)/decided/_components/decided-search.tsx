"use client";

import { useState, type FormEvent } from "react";
import { useQueryStates } from "nuqs";
import { useTranslations } from "next-intl";
import { decidedStatuses } from "@/lib/domain/proposal-state";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { NativeSelect, NativeSelectOption } from "@/components/ui/native-select";
import { decidedParams } from "./decided-params";

/** The search form; submitting writes to the URL and the server page renders the results. */
export function DecidedSearch() {
  const t = useTranslations("decided");
  const ts = useTranslations("status");
  const [params, setParams] = useQueryStates(decidedParams, { shallow: false });
  const [q, setQ] = useState(params.q);
  function submit(event: FormEvent) {
    event.preventDefault();
    void setParams({ q: q.trim() || null, page: null });
  }
  return (
    <form role="search" onSubmit={submit} className="mb-4 flex flex-wrap items-end gap-3">
      <div className="grid min-w-0 flex-1 basis-64 gap-1.5">
        <label htmlFor="decided-q">{t("search")}</label>
        <Input
          id="decided-q"
          type="search"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          placeholder={t("searchHint")}
        />
      </div>
      <div className="grid gap-1.5">
        <label htmlFor="decided-status">{t("status")}</label>
        <NativeSelect
          id="decided-status"
          value={params.status ?? ""}
          onChange={(e) =>
            void setParams({ status: (e.target.value || null) as (typeof decidedStatuses)[number] | null, page: null })
          }
        >
          <NativeSelectOption value="">{t("anyStatus")}</NativeSelectOption>
          {decidedStatuses.map((s) => (
            <NativeSelectOption key={s} value={s}>
              {ts(s)}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </div>
      <Button type="submit">{t("submit")}</Button>
    </form>
  );
}
