// Field renders on the server as well as in the browser: checked here through react-dom/server.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { describedByIds, Field, InputField, requiredText } from "./field";

const input = (props: Partial<Parameters<typeof InputField>[0]> = {}) =>
  renderToStaticMarkup(createElement(InputField, { id: "f", label: "Name", name: "name", ...props }));

/** The attributes of the one `<input>` in the markup. */
const inputAttrs = (html: string) => {
  const tag = html.match(/<input[^>]*>/)?.[0] ?? "";
  return Object.fromEntries([...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
};

describe("Field", () => {
  it("points the label at the control and renders the control the caller gives", () => {
    const html = renderToStaticMarkup(
      createElement(Field, { id: "lang", label: "Language", children: (c) => createElement("select", c) }),
    );
    expect(html).toBe('<div class="field"><label for="lang">Language</label><select id="lang"></select></div>');
  });

  it("without a hint or an error the control carries no aria-describedby and no aria-invalid", () => {
    const a = inputAttrs(input());
    expect(a).toMatchObject({ id: "f", name: "name" });
    expect(a["aria-describedby"]).toBeUndefined();
    expect(a["aria-invalid"]).toBeUndefined();
  });

  it("a hint gets the id <id>-help and describes the control", () => {
    const html = input({ hint: "At most 80 characters" });
    expect(html).toContain('<p id="f-help" class="muted">At most 80 characters</p>');
    expect(inputAttrs(html)["aria-describedby"]).toBe("f-help");
  });

  it("a hint keeps an id the caller names", () => {
    const html = input({ hint: "Twelve or more", hintId: "setup-help" });
    expect(html).toContain('<p id="setup-help"');
    expect(inputAttrs(html)["aria-describedby"]).toBe("setup-help");
  });

  it("an invalid control is marked and described by the hint, then by the error shown elsewhere", () => {
    const a = inputAttrs(input({ hint: "h", invalid: true, describedBy: ["form-error"] }));
    expect(a["aria-invalid"]).toBe("true");
    expect(a["aria-describedby"]).toBe("f-help form-error");
  });

  it("invalid: false marks nothing", () => {
    expect(inputAttrs(input({ invalid: false }))["aria-invalid"]).toBeUndefined();
  });

  it("the caller's props reach the input, and cannot unset the wiring", () => {
    const a = inputAttrs(input({ ...requiredText, className: "mono", maxLength: 80, hint: "h" }));
    expect(a).toMatchObject({ type: "text", autoComplete: "off", class: "mono", maxLength: "80" });
    expect(a["aria-describedby"]).toBe("f-help");
    expect(input(requiredText)).toMatch(/<input[^>]* required=""/);
  });
});

describe("describedByIds", () => {
  it("joins the ids in order and leaves out the empty ones", () => {
    expect(describedByIds("a-help", [null, "b", undefined, ""])).toBe("a-help b");
    expect(describedByIds(null, ["b"])).toBe("b");
    expect(describedByIds(null)).toBeUndefined();
  });
});
