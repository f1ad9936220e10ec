// The words of a kind's review (docs/action-kinds.md): a built-in kind's labels and sentence are messages
// (`kinds.<kind>.fields.<key>`, `kinds.<kind>.confirm`); an admin-declared action carries its own in its hashed
// params (the declaration's `fields[].label` and `sentence`, per locale), which its review passes on as
// `label` / `sentenceText`. These pick the proposal's own words when it has them, the messages otherwise.

/** A review field's label: the proposal's own when it carries one, else what the kind's messages say. */
export function reviewFieldLabel(field: { key: string; label?: string | null }, fromMessages: (key: string) => string) {
  return field.label ? field.label : fromMessages(field.key);
}

/**
 * A proposal's own sentence with its `{key}` placeholders filled from the review's values (each value as it is: no
 * message syntax is interpreted, so a value or a template with braces or quotes cannot change the sentence's shape);
 * a placeholder without a value stays as written.
 */
export function fillSentence(template: string, values: Record<string, string>): string {
  return template.replace(/\{([a-z][a-z0-9_]*)\}/g, (whole, key: string) =>
    Object.hasOwn(values, key) ? values[key]! : whole,
  );
}

/** The confirmation sentence: the proposal's own (filled) when it has one, else the kind's message. */
export function reviewSentence(
  review: { sentence: Record<string, string>; sentenceText?: string | null },
  extra: Record<string, string>,
  fromMessages: (values: Record<string, string>) => string,
): string {
  const values = { ...review.sentence, ...extra };
  return review.sentenceText ? fillSentence(review.sentenceText, values) : fromMessages(values);
}
