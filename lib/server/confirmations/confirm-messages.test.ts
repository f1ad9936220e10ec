// The confirm page's words for an admin-declared action: the customer reads each field under the label the
// declaration gave it in their tenant's language (hashed with the proposal), and the declared sentence; a built-in
// kind's fields keep their messages.
import { describe, expect, it } from "vitest";
import { confirmTexts } from "./confirm-messages";
import type { ConfirmPageView } from "./read-confirm-page";

const view = (over: Partial<ConfirmPageView>): ConfirmPageView => ({
  proposalId: "00000000-0000-4000-8000-000000000001",
  hash: "a".repeat(64),
  kind: "declared_action",
  locale: "es-ES",
  tenantName: "Tienda",
  linkExpiresAt: "2026-12-06T12:00:00.000Z",
  fields: [],
  sentence: {},
  ...over,
});

describe("confirm page texts", () => {
  it("a declared action's fields read under their declared labels, in the tenant's language, with the declared sentence", () => {
    const fields = [
      { key: "customer", before: null, after: "Ana", changed: false, label: { en: "Customer", es: "Cliente" } },
      { key: "amount", before: null, after: "1234", changed: false, label: { en: "Amount", es: "Importe" } },
    ];
    const sentence = { text_en: "Issue 1234 EUR to Ana.", text_es: "Emitir 1234 EUR a Ana." };
    const es = confirmTexts(view({ fields, sentence }));
    expect(es.rows.map((r) => [r.label, r.after])).toEqual([
      ["Cliente", "Ana"],
      ["Importe", "1234"],
    ]);
    expect(es.sentence).toContain("Emitir 1234 EUR a Ana.");
    const en = confirmTexts(view({ fields, sentence, locale: "en-US" }));
    expect(en.rows.map((r) => r.label)).toEqual(["Customer", "Amount"]);
  });

  it("a built-in kind's fields keep their messages", () => {
    const texts = confirmTexts(
      view({
        kind: "change_shipping_address",
        locale: "en-US",
        fields: [{ key: "city", before: "Madrid", after: "Lisboa", changed: true }],
        sentence: { order: "ORD-1", address: "Rua Augusta 10, Lisboa" },
      }),
    );
    expect(texts.rows[0]?.label).not.toBe("city");
  });
});
