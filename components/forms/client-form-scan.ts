/**
 * The lines of `source` where a raw `<form` element takes an `onSubmit`: a form React sends, which must be a
 * ClientForm (client-form.tsx). Not counted: server-action forms (`action={…}`) and plain GET forms, which work
 * without React, and a `method="post"` form, whose fields the browser sends in the body, never the URL (the sign-in
 * form: a password manager fills its fields before hydration, so they stay enabled; auth.spec proves the fallback).
 */
export function formsSentByReact(source: string): number[] {
  const lines: number[] = [];
  // An opening tag: anything up to its first ">" that is not the end of an arrow ("=>").
  const tag = /<form\b(?:=>|[^>])*>/g;
  for (let m = tag.exec(source); m; m = tag.exec(source)) {
    if (/\bonSubmit=/.test(m[0]) && !/\bmethod="post"/.test(m[0]))
      lines.push(source.slice(0, m.index).split("\n").length);
  }
  return lines;
}
