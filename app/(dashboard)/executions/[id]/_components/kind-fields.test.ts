// An execution's fields as the kind's review presents them: a declared action's own label in the viewer's locale,
// a built-in kind's from the messages.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { NextIntlClientProvider } from "next-intl";
import { describe, expect, it } from "vitest";
import en from "@/messages/en.json";
import es from "@/messages/es.json";
import { KindFields } from "./kind-fields";

const html = (locale: "en" | "es", kind: string, fields: Parameters<typeof KindFields>[0]["fields"]) =>
  renderToStaticMarkup(
    createElement(NextIntlClientProvider, {
      locale,
      messages: locale === "en" ? en : es,
      timeZone: "UTC",
      children: createElement(KindFields, { kind, fields }),
    }),
  );

describe("KindFields", () => {
  const declared = [
    { key: "amount", before: null, after: "1234", changed: false, label: { en: "Amount", es: "Importe" } },
  ];

  it("labels a declared field with its own label in the viewer's locale", () => {
    expect(html("es", "declared_action", declared)).toMatch(/<th scope="row"[^>]*>Importe<\/th>/);
    expect(html("en", "declared_action", declared)).toMatch(/<th scope="row"[^>]*>Amount<\/th>/);
  });

  it("labels a built-in kind's field from the messages", () => {
    const out = html("en", "change_shipping_address", [
      { key: "line1", before: "500 Market St", after: "600 Market St", changed: true },
    ]);
    expect(out).toMatch(new RegExp(`<th scope="row"[^>]*>${en.kinds.change_shipping_address.fields.line1}</th>`));
  });
});
