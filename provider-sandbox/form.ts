// Stripe's request encoding: application/x-www-form-urlencoded with bracket nesting, as stripe-node
// writes it (`metadata[proposalId]=…`, `expand[0]=…`). Pure code, no I/O.

export type FormValue = string | FormObject | FormValue[];
export type FormObject = { [key: string]: FormValue };

export class FormError extends Error {
  constructor(
    message: string,
    readonly param: string,
  ) {
    super(message);
  }
}

/** Splits `a[b][0]` into ["a", "b", "0"]; `a[]` gives ["a", ""]. Throws on unbalanced brackets. */
export function splitFormKey(key: string): string[] {
  const open = key.indexOf("[");
  if (open === -1) return [key];
  if (open === 0) throw new FormError(`Invalid parameter name: ${key}`, key);
  const parts = [key.slice(0, open)];
  let rest = key.slice(open);
  while (rest.length > 0) {
    const match = /^\[([^[\]]*)\]/.exec(rest);
    if (!match) throw new FormError(`Invalid parameter name: ${key}`, key);
    parts.push(match[1] ?? "");
    rest = rest.slice(match[0].length);
  }
  return parts;
}

/**
 * Decodes a form body (or a query string) into nested objects. Numeric and empty indexes build arrays,
 * like Stripe's `expand[]`. A key given twice, or used both as a value and as a container, is refused:
 * a sandbox that silently keeps one of them would hide a client bug.
 */
export function parseStripeForm(body: string): FormObject {
  const root: FormObject = {};
  const params = new URLSearchParams(body);
  for (const [rawKey, value] of params) {
    const path = splitFormKey(rawKey);
    let node: FormObject | FormValue[] = root;
    for (let i = 0; i < path.length; i++) {
      const segment = path[i]!;
      const last = i === path.length - 1;
      if (Array.isArray(node)) {
        const index = segment === "" ? node.length : Number(segment);
        if (!Number.isInteger(index) || index < 0 || index > node.length)
          throw new FormError(`Invalid array index in ${rawKey}`, rawKey);
        if (last) {
          if (index < node.length) throw new FormError(`Duplicate parameter: ${rawKey}`, rawKey);
          node.push(value);
        } else {
          node = descend(node, index, path[i + 1]!, rawKey);
        }
        continue;
      }
      if (last) {
        if (Object.hasOwn(node, segment)) throw new FormError(`Duplicate parameter: ${rawKey}`, rawKey);
        node[segment] = value;
      } else {
        node = descend(node, segment, path[i + 1]!, rawKey);
      }
    }
  }
  return root;
}

function descend(
  container: FormObject | FormValue[],
  key: string | number,
  nextSegment: string,
  rawKey: string,
): FormObject | FormValue[] {
  const holder = container as Record<string | number, FormValue | undefined>;
  const existing = holder[key];
  const wantsArray = nextSegment === "" || /^\d+$/.test(nextSegment);
  if (existing === undefined) {
    const created: FormObject | FormValue[] = wantsArray ? [] : {};
    if (Array.isArray(container)) container.push(created);
    else container[key as string] = created;
    return created;
  }
  if (typeof existing === "string" || Array.isArray(existing) !== wantsArray) {
    throw new FormError(`Conflicting parameter: ${rawKey}`, rawKey);
  }
  return existing;
}

/** The parameters in a canonical order: two requests with the same parameters get the same string. */
export function canonicalForm(value: FormValue): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalForm).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalForm(value[k]!)}`).join(",")}}`;
}
