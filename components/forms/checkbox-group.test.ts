// CheckboxGroup renders on the server as well as in the browser: checked here through react-dom/server.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CheckboxGroup } from "./checkbox-group";

type Props = Parameters<typeof CheckboxGroup<"admin" | "reviewer">>[0];
const html = (props: Partial<Props> = {}) =>
  renderToStaticMarkup(
    createElement(CheckboxGroup<"admin" | "reviewer">, {
      legend: "Roles",
      name: "roles",
      choices: ["admin", "reviewer"],
      label: (r) => r.toUpperCase(),
      ...props,
    }),
  );

describe("CheckboxGroup", () => {
  it("one labelled box per choice, all under the group's name, in a fieldset named by its legend", () => {
    expect(html()).toBe(
      '<fieldset class="field"><legend>Roles</legend>' +
        '<label><input type="checkbox" name="roles" value="admin"/> ADMIN</label>' +
        '<label><input type="checkbox" name="roles" value="reviewer"/> REVIEWER</label></fieldset>',
    );
  });

  it("ticks exactly the choices `checked` says, and a disabled group disables the fieldset", () => {
    const out = html({ checked: (r) => r === "reviewer", disabled: true, note: "Admins need a second admin" });
    expect(out).toMatch(/^<fieldset class="field" disabled="">/);
    expect(out).toContain('<p class="muted">Admins need a second admin</p>');
    expect(out).toContain('name="roles" value="admin"/>');
    expect(out).toContain('name="roles" checked="" value="reviewer"/>');
  });
});
