// Section renders on the server as well as in the browser: checked here through react-dom/server.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CardSection, Section } from "./section";

type SectionProps = Parameters<typeof Section>[0];
const html = (el: typeof Section, props: SectionProps) => renderToStaticMarkup(createElement(el, props));

describe("Section", () => {
  it("is a region named by its heading: aria-labelledby points at the heading's id", () => {
    expect(html(Section, { titleId: "t", title: "History", className: "panel", children: "x" })).toBe(
      '<section aria-labelledby="t" class="panel"><h2 id="t">History</h2>x</section>',
    );
  });

  it("a page's own title is an h1 with its lead under it; parts of a page may be h3", () => {
    expect(html(Section, { titleId: "p", title: "Queue", level: 1, lead: "What waits" })).toBe(
      '<section aria-labelledby="p"><h1 id="p">Queue</h1><p class="lead">What waits</p></section>',
    );
    expect(html(Section, { titleId: "s", title: "Slack", level: 3 })).toContain('<h3 id="s">Slack</h3>');
  });

  it("passes other attributes to the section (test ids)", () => {
    const testId = { "data-testid": "outcome" };
    expect(html(Section, { titleId: "o", title: "Outcome", ...testId })).toContain('data-testid="outcome"');
  });
});

describe("CardSection", () => {
  it("adds the caller's classes to the card's and to its heading's", () => {
    const out = html(CardSection, { titleId: "c", title: "Chart", className: "grid gap-3", headingClassName: "mb-3" });
    expect(out).toContain('class="min-w-0 rounded-xl border bg-card p-4 grid gap-3"');
    expect(out).toContain('<h2 id="c" class="m-0 text-lg font-semibold mb-3">Chart</h2>');
  });
});
