import { describe, expect, it } from "vitest";
import { reviewFieldLabel } from "@/lib/i18n/review-label";

const messages = (key: string) => `msg:${key}`;
const label = { en: "Amount", es: "Importe" };

describe("a review field's label", () => {
  it("a field's own label (a declared action's) in the viewer's locale wins", () => {
    expect(reviewFieldLabel({ key: "amount", label }, "es", messages)).toBe("Importe");
    expect(reviewFieldLabel({ key: "amount", label }, "en", messages)).toBe("Amount");
    // Another locale reads the English one (the declaration has en and es).
    expect(reviewFieldLabel({ key: "amount", label }, "fr", messages)).toBe("Amount");
  });

  it("without one (a built-in kind), or an empty one, the kind's message names the field", () => {
    expect(reviewFieldLabel({ key: "amount" }, "en", messages)).toBe("msg:amount");
    expect(reviewFieldLabel({ key: "amount", label: null }, "es", messages)).toBe("msg:amount");
    expect(reviewFieldLabel({ key: "amount", label: { en: "", es: "" } }, "es", messages)).toBe("msg:amount");
  });
});
