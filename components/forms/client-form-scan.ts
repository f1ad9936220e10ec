/**
 * The lines of `source` where a raw `<form` element takes an `onSubmit` before its opening tag ends: a form React
 * sends, which must be a ClientForm (client-form.tsx). Server-action forms (`action={…}`) and plain GET forms work
 * without React and are not counted.
 */
export function formsSentByReact(source: string): number[] {
  const lines: number[] = [];
  const tag = /<form\b([^>]|=>)*?onSubmit=/g;
  for (let m = tag.exec(source); m; m = tag.exec(source)) {
    lines.push(source.slice(0, m.index).split("\n").length);
  }
  return lines;
}
