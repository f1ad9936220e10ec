"use client";

import { ClientForm } from "@/components/forms/client-form";
import type { ReactNode } from "react";
import { useTranslations } from "next-intl";
import { auditOutcomes } from "@/lib/domain/audit-actions";
import { auditPickerActions, auditPickerGroups } from "@/lib/actions/audit-picker";
import { Field } from "@/components/forms/field";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { NativeSelect, NativeSelectOption } from "@/components/ui/native-select";
import { NativeSelectOptGroup } from "@/components/ui/native-select-optgroup";
import type { AuditLabels } from "./audit-cells";
import type { AuditSearchState } from "./use-audit-search";
import { ClientButton } from "@/components/ui/client-button";

type Props = { state: AuditSearchState; labels: AuditLabels };

/** The search form: dates with quick ranges, action and outcome pickers, the text filters. */
export function AuditFiltersForm({ state, labels }: Props) {
  const t = useTranslations("audit");
  const { draft, setDraft, zone, foreignZone } = state;
  // Until React owns the page every control of the form is disabled (ClientForm): the text fields, the pickers (a
  // controlled select is not held back everywhere: the queue's toolbar applies a choice made before hydration),
  // Search and the quick ranges, which only React can run.

  // A text or date-time filter: its value in the draft; a date-time is read in the zone the note names.
  const input = (name: "traceId" | "actor" | "proposalId" | "subject" | "from" | "to", hint?: string) => {
    const date = name === "from" || name === "to";
    return (
      <Field
        id={`audit-${name}`}
        label={t(name)}
        hint={hint}
        hintId={`audit-${name}-hint`}
        describedBy={date ? ["audit-zone"] : []}
        className="grid min-w-0 gap-1.5"
        hintClassName="m-0 text-xs text-muted-foreground"
      >
        {(control) => (
          <Input
            {...control}
            name={name}
            type={date ? "datetime-local" : undefined}
            value={draft[name] ?? ""}
            onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
            autoComplete={date ? undefined : "off"}
          />
        )}
      </Field>
    );
  };
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
    <ClientForm
      onSubmit={state.submit}
      role="search"
      aria-label={t("searchTitle")}
      className="mb-6 grid gap-4 rounded-xl border bg-card p-4"
    >
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {input("from")}
        {input("to")}
        {picker(
          "action",
          auditPickerActions,
          Object.entries(auditPickerGroups).map(([group, codes]) => (
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
          <ClientButton type="button" className="underline" onClick={state.switchToMyZone}>
            {t("useMyZone", { zone: foreignZone })}
          </ClientButton>
        ) : null}
      </p>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {input("traceId")}
        {input("actor")}
        {input("proposalId")}
        {input("subject", t("subjectHint"))}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit">{t("search")}</Button>
        {state.active ? (
          <Button type="button" variant="ghost" onClick={state.clear}>
            {t("clear")}
          </Button>
        ) : null}
      </div>
    </ClientForm>
  );
}
