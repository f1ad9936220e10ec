import "server-only";
import { createTranslator } from "use-intl/core";
import { languageOf } from "@/lib/i18n/locales";
import { reviewFieldLabel } from "@/lib/i18n/review-label";
import type { ReviewField } from "@/lib/actions/kind.server";
import en from "@/messages/en.json";
import es from "@/messages/es.json";
import type { ConfirmTexts } from "@/lib/schemas/customer-confirmation";
import type { ConfirmPageView } from "./read-confirm-page";

export type { ConfirmTexts };

// The confirm page speaks the tenant's language (not the browser's, nor a staff member's): its texts are made here
// from the messages catalogue for the tenant's locale, so the page needs no client-side translation at all.

const catalogs = { en, es };

type Translate = ((key: string, values?: Record<string, string>) => string) & { has(key: string): boolean };

/** The page's translator for a locale: `confirm.*` and the kinds' titles, labels and sentences (keys by name). */
export function confirmTranslator(locale: string): Translate {
  const language = languageOf(locale);
  const t = createTranslator({
    locale: language,
    messages: { confirm: catalogs[language].confirm, kinds: catalogs[language].kinds },
  });
  return t as unknown as Translate;
}

/** Every text of the confirm page for one action, from the view's hashed values only. */
export function confirmTexts(view: ConfirmPageView): ConfirmTexts {
  const t = confirmTranslator(view.locale);
  const expiresAt = new Intl.DateTimeFormat(view.locale, { dateStyle: "medium", timeStyle: "short" }).format(
    new Date(view.linkExpiresAt),
  );
  const has = (key: string) => t.has(key);
  // An admin-declared action's field carries its own label per locale (hashed); a built-in kind's is a message.
  const label = (f: ReviewField) =>
    reviewFieldLabel(f, languageOf(view.locale), (key) => {
      const own = `kinds.${view.kind}.fields.${key}`;
      return has(own) ? t(own) : has(`confirm.fields.${key}`) ? t(`confirm.fields.${key}`) : key;
    });
  const refund = view.kind === "refund";
  const heading = refund
    ? t("confirm.refundTitle")
    : has(`kinds.${view.kind}.title`)
      ? t(`kinds.${view.kind}.title`)
      : view.kind;
  // A sentence whose values the kind did not give (params altered outside the product) is left out, never guessed.
  let sentence: string;
  try {
    sentence = refund
      ? t("confirm.refund", view.sentence)
      : t(`kinds.${view.kind}.confirm`, { ...view.sentence, expires: expiresAt });
  } catch {
    sentence = "";
  }
  return {
    title: t("confirm.title"),
    heading,
    lead: t("confirm.lead", { tenant: view.tenantName }),
    sentence,
    expires: t("confirm.expires", { time: expiresAt }),
    rows: view.fields.map((f) => ({ label: label(f), before: f.before, after: f.after, changed: f.changed })),
    columns: {
      field: t("confirm.field"),
      value: t("confirm.value"),
      before: t("confirm.before"),
      after: t("confirm.after"),
    },
    reasonLabel: t("confirm.reasonLabel"),
    confirm: t("confirm.confirm"),
    decline: t("confirm.decline"),
  };
}
