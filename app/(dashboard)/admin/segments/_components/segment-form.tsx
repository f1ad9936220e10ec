"use client";

import { ClientForm } from "@/components/forms/client-form";
import { useState } from "react";
import { useTranslations } from "next-intl";
import { InputField } from "@/components/forms/field";
import { Notice } from "@/components/forms/notice";
import type { SegmentView } from "@/lib/schemas/segments";
import { FormError } from "../../_components/form-error";
import { StepUpField, stepUpValue } from "../../_components/step-up-field";
import { useAdminRequest } from "../../_components/use-admin-request";

/** A comma-separated field as a list (absent when empty). */
function listOf(form: FormData, name: string, upper = false): string[] | undefined {
  const raw = String(form.get(name) ?? "");
  const items = raw
    .split(",")
    .map((s) => (upper ? s.trim().toUpperCase() : s.trim()))
    .filter(Boolean);
  return items.length > 0 ? items : undefined;
}

/** A date field as the start of that day in UTC (absent when empty). */
function dayOf(form: FormData, name: string): string | undefined {
  const raw = String(form.get(name) ?? "");
  return raw ? `${raw}T00:00:00Z` : undefined;
}

/** Declares a segment, or its next version when the slug exists (POST /api/admin/segments). */
export function SegmentForm() {
  const t = useTranslations("adminSegments");
  const save = useAdminRequest<SegmentView>();
  const [done, setDone] = useState<string | null>(null);
  return (
    <ClientForm
      className="panel stack"
      aria-labelledby="segment-form-title"
      onSubmit={async (e) => {
        setDone(null);
        const r = await save.submit(
          e,
          "POST",
          "/api/admin/segments",
          (f) => ({
            slug: String(f.get("slug") ?? "").trim(),
            name: String(f.get("name") ?? ""),
            filter: {
              statuses: listOf(f, "statuses"),
              skus: listOf(f, "skus"),
              placedFrom: dayOf(f, "placedFrom"),
              placedTo: dayOf(f, "placedTo"),
              countries: listOf(f, "countries", true),
            },
            ...stepUpValue(f),
          }),
          true,
        );
        if (r) setDone(t("saved", { slug: r.slug, version: r.version }));
      }}
    >
      <h2 id="segment-form-title">{t("add")}</h2>
      <p className="muted">{t("addHint")}</p>
      <InputField id="segment-slug" name="slug" label={t("slug")} hint={t("slugHint")} required maxLength={60} />
      <InputField id="segment-name" name="name" label={t("name")} required maxLength={120} />
      <InputField id="segment-statuses" name="statuses" label={t("statuses")} hint={t("statusesHint")} />
      <InputField id="segment-skus" name="skus" label={t("skus")} hint={t("listHint")} />
      <InputField id="segment-from" name="placedFrom" type="date" label={t("placedFrom")} />
      <InputField id="segment-to" name="placedTo" type="date" label={t("placedTo")} />
      <InputField id="segment-countries" name="countries" label={t("countries")} hint={t("countriesHint")} />
      <StepUpField id="segment-step-up" show={save.needsStepUp} />
      <FormError id="segment-error" error={save.error} />
      <Notice>{done}</Notice>
      <div>
        <button type="submit" disabled={save.pending}>
          {save.pending ? t("saving") : t("save")}
        </button>
      </div>
    </ClientForm>
  );
}
