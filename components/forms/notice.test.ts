import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Notice } from "./notice";

const html = (children: Parameters<typeof Notice>[0]["children"]) =>
  renderToStaticMarkup(createElement(Notice, { children }));

describe("Notice", () => {
  it("announces what it is given as a status in the notice box", () => {
    expect(html("Saved.")).toBe('<p class="notice" role="status">Saved.</p>');
  });

  it("renders nothing while there is nothing to say", () => {
    for (const empty of [null, undefined, false, ""]) expect(html(empty)).toBe("");
  });
});
