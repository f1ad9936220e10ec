// The source scans behind the pre-hydration guards (docs/architecture.md): nothing React does can be clicked before
// React owns the page. client-form.test.ts and client-button.test.ts run them over app/ and components/.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Each opening `<element …>` tag of `source` with its line: anything up to its first ">" that is not an arrow's. */
function openingTags(source: string, element: string): { tag: string; line: number }[] {
  const found: { tag: string; line: number }[] = [];
  const tag = new RegExp(`<${element}\\b(?:=>|[^>])*>`, "g");
  for (let m = tag.exec(source); m; m = tag.exec(source))
    found.push({ tag: m[0], line: source.slice(0, m.index).split("\n").length });
  return found;
}

/**
 * The lines of `source` where a raw `<form` element takes an `onSubmit`: a form React sends, which must be a
 * ClientForm (forms/client-form.tsx). Not counted: server-action forms (`action={…}`) and plain GET forms, which work
 * without React, and a `method="post"` form, whose fields the browser sends in the body, never the URL (the sign-in
 * form: a password manager fills its fields before hydration, so they stay enabled; auth.spec proves the fallback).
 */
export function formsSentByReact(source: string): number[] {
  return openingTags(source, "form")
    .filter(({ tag }) => /\bonSubmit=/.test(tag) && !/\bmethod="post"/.test(tag))
    .map(({ line }) => line);
}

/**
 * The lines of `source` where a raw `<button` element takes an `onClick`: a click only React can carry out, which
 * must be a ClientButton (ui/client-button.tsx) or a `Button` (ui/button.tsx renders a ClientButton for an onClick),
 * so that it waits for hydration instead of being lost.
 */
export function buttonsClickedByReact(source: string): number[] {
  return openingTags(source, "button")
    .filter(({ tag }) => /\bonClick=/.test(tag))
    .map(({ line }) => line);
}

/** `path:line` of every place in the .tsx files of app/ and components/ that `scan` finds, except in `exempt`. */
export function scanSources(scan: (source: string) => number[], exempt: string[] = []): string[] {
  const root = join(import.meta.dirname, "..");
  return ["app", "components"]
    .flatMap((dir) =>
      (readdirSync(join(root, dir), { recursive: true }) as string[])
        .filter((f) => f.endsWith(".tsx"))
        .map((f) => join(dir, f)),
    )
    .filter((file) => !exempt.includes(file))
    .flatMap((file) => scan(readFileSync(join(root, file), "utf8")).map((line) => `${file}:${line}`));
}
