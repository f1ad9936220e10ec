/**
 * The lines of `source` where a raw `<button` element takes an `onClick`: a click only React can carry out, which
 * must be a ClientButton (client-button.tsx) or a `Button` (button.tsx renders a ClientButton for an onClick), so that
 * it waits for hydration instead of being lost.
 */
export function buttonsClickedByReact(source: string): number[] {
  const lines: number[] = [];
  // An opening tag: anything up to its first ">" that is not the end of an arrow ("=>").
  const tag = /<button\b(?:=>|[^>])*>/g;
  for (let m = tag.exec(source); m; m = tag.exec(source))
    if (/\bonClick=/.test(m[0])) lines.push(source.slice(0, m.index).split("\n").length);
  return lines;
}
