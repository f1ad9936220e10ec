// Where a problem is shown in the "New action" form: the boxes' paths, and the box a server problem belongs to.
import { normalizePath, type Draft } from "./draft";

const inputBoxes = ["name", "type", "description", "pattern", "enum", "maxLength", "minimum", "maximum"];
const derivedBoxes = ["key", "pointer", "label.en", "label.es", "clear"];

/** Every path the form shows a problem at, for this draft's rows. */
export function boxPaths(d: Draft): Set<string> {
  return new Set([
    "name",
    "description",
    "input",
    ...d.input.flatMap((_, i) => inputBoxes.map((b) => `input.${i}.${b}`)),
    "derive.path",
    "fields",
    ...d.fields.flatMap((_, i) => derivedBoxes.map((b) => `fields.${i}.${b}`)),
    "sentence.en",
    "sentence.es",
    "policy.approvals",
    "policy.money",
    "execute.action",
  ]);
}

/**
 * The box a server problem belongs to: its path, or the nearest enclosing one the form shows (`policy.money.amountKey`
 * → `policy.money`, `input.2` → `input`); null when none (the problem is shown on top of the form).
 */
export function boxOf(serverPath: string, boxes: Set<string>): string | null {
  const parts = normalizePath(serverPath).split(".");
  for (let n = parts.length; n > 0; n--) {
    const path = parts.slice(0, n).join(".");
    if (boxes.has(path)) return path;
  }
  return null;
}
