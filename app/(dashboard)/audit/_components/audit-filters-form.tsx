"use client";

import type { ReactNode } from "react";
import { useTranslations } from "next-intl";
import { auditActionGroups, auditActions, auditOutcomes } from "@/lib/domain/audit-actions";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { NativeSelect, NativeSelectOption } from "@/components/ui/native-select";
import { NativeSelectOptGroup } from "@/components/ui/native-select-optgroup";
import type { AuditLabels } from "./audit-cells";
import type { AuditSearchState } from "./use-audit-search";

type Props = { state: AuditSearchState; labels: AuditLabels };

/** The search form: dates with quick ranges, action and outcome pickers, the text filters. */
export function AuditFiltersForm({ state, labels }: Props) {
  const t = useTranslations("audit");
  const { draft, setDraft, zone, foreignZone } = state;

  const text = (name: "traceId" | "actor" | "proposalId" | "subject", hint?: string) => (
    <div className="grid min-w-0 gap-1.5">
      <label htmlFor={`audit-${name}`}>{t(name)}</label>
      <Input
        id={`audit-${name}`}
        name={name}
        value={draft[name] ?? ""}
        onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
        autoComplete="off"
        aria-describedby={hint ? `audit-${name}-hint` : undefined}
      />
      {hint ? (
        <small id={`audit-${name}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </small>
      ) : null}
    </div>
  );
  const date = (name: "from" | "to") => (
    <div className="grid min-w-0 gap-1.5">
      <label htmlFor={`audit-${name}`}>{t(name)}</label>
      <Input
        id={`audit-${name}`}
        name={name}
        type="datetime-local"
        value={draft[name] ?? ""}
        onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
        aria-describedby="audit-zone"
      />
    </div>
  );
  // An action or outcome picker; a code the list does not know (a tool an agent invented, from a link) stays
  // selectable as itself.
  const picker = (name: "action" | "outcome", known: readonly string[], options: ReactNode) => {
    const value = draft[name];
    return (
      <div className="grid min-w-0 gap-1.5 [&_[data-slot=native-select-wrapper]]:w-full">
        <label htmlFor={`audit-${name}`}>{t(name)}</label>
        <NativeSelect
          id={`audit-${name}`}
          name={name}
          className="w-full"
          value={value ?? ""}
          onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
        >
          <NativeSelectOption value="">{t(name === "action" ? "anyAction" : "anyOutcome")}</NativeSelectOption>
          {value && !known.includes(value) ? <NativeSelectOption value={value}>{value}</NativeSelectOption> : null}
          {options}
        </NativeSelect>
      </div>
    );
  };

  return (
    <form
      onSubmit={state.submit}
      role="search"
      aria-label={t("searchTitle")}
      className="mb-6 grid gap-4 rounded-xl border bg-card p-4"
    >
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {date("from")}
        {date("to")}
        {picker(
          "action",
          auditActions,
          Object.entries(auditActionGroups).map(([group, codes]) => (
            <NativeSelectOptGroup key={group} label={t(`actionGroups.${group}`)}>
              {codes.map((code) => (
                <NativeSelectOption key={code} value={code}>
                  {labels.action(code)}
                </NativeSelectOption>
              ))}
            </NativeSelectOptGroup>
          )),
        )}
        {picker(
          "outcome",
          auditOutcomes,
          auditOutcomes.map((code) => (
            <NativeSelectOption key={code} value={code}>
              {labels.outcome(code)}
            </NativeSelectOption>
          )),
        )}
      </div>
      <div className="flex flex-wrap items-center gap-2 text-sm" role="group" aria-label={t("quickRanges")}>
        {(["hour", "today", "week"] as const).map((r) => (
          <Button key={r} type="button" variant="outline" size="sm" onClick={() => state.preset(r)}>
            {t(`range_${r}`)}
          </Button>
        ))}
      </div>
      <p id="audit-zone" className="m-0 text-sm text-muted-foreground" data-zone={zone}>
        {foreignZone ? t("zoneOfLink", { zone }) : t("zoneNote", { zone })}{" "}
        {foreignZone ? (
          <button type="button" className="underline" onClick={state.switchToMyZone}>
            {t("useMyZone", { zone: foreignZone })}
          </button>
        ) : null}
      </p>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {text("traceId")}
        {text("actor")}
        {text("proposalId")}
        {text("subject", t("subjectHint"))}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit">{t("search")}</Button>
        {state.active ? (
          <Button type="button" variant="ghost" onClick={state.clear}>
            {t("clear")}
          </Button>
        ) : null}
      </div>
    </form>
  );
}
