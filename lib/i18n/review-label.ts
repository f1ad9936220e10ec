// The words of a kind's review (docs/action-kinds.md): a built-in kind's field labels are messages
// (`kinds.<kind>.fields.<key>`); an admin-declared action's fields carry their own label per locale in the hashed
// params (the declaration's `fields[].label`), which its review passes on as `label: {en, es}`.

/** A label per locale, as an admin-declared action declares it. */
export type LocalizedLabel = { en: string; es: string };

/** A review field's label: its own in the viewer's locale when it carries one, else what the kind's messages say. */
export function reviewFieldLabel(
  field: { key: string; label?: LocalizedLabel | null },
  locale: string,
  fromMessages: (key: string) => string,
): string {
  if (!field.label) return fromMessages(field.key);
  return (locale === "es" ? field.label.es : field.label.en) || fromMessages(field.key);
}
