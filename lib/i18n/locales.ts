// UI languages. Formatting uses the full locale (es-ES, en-US); messages are per language.
export const languages = ["en", "es"] as const;
export type Language = (typeof languages)[number];
export const defaultLocale = "en-US";

export function languageOf(locale: string): Language {
  const lang = locale.toLowerCase().split("-")[0];
  return (languages as readonly string[]).includes(lang ?? "") ? (lang as Language) : "en";
}

/** Picks a supported locale from an Accept-Language header (signed-out pages). */
export function negotiateLocale(acceptLanguage: string | null | undefined): string {
  for (const part of (acceptLanguage ?? "").split(",")) {
    const tag = part.split(";")[0]?.trim();
    if (!tag) continue;
    const lang = tag.toLowerCase().split("-")[0];
    if (lang === "es") return tag.includes("-") ? tag : "es-ES";
    if (lang === "en") return tag.includes("-") ? tag : "en-US";
  }
  return defaultLocale;
}
