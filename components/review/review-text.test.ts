import { describe, expect, it } from "vitest";
import { fillSentence, reviewFieldLabel, reviewSentence } from "./review-text";

const messages = (key: string) => `msg:${key}`;

describe("a review's words", () => {
  it("a field's own label (a declared action's) wins; without one the kind's message names it", () => {
    expect(reviewFieldLabel({ key: "amount", label: "Importe" }, messages)).toBe("Importe");
    expect(reviewFieldLabel({ key: "amount" }, messages)).toBe("msg:amount");
    expect(reviewFieldLabel({ key: "amount", label: "" }, messages)).toBe("msg:amount");
  });

  it("fills a declared sentence's placeholders with the review's values, literally", () => {
    expect(
      fillSentence("Issue {amount} {currency} to {customer}", { amount: "12.34", currency: "USD", customer: "Jane" }),
    ).toBe("Issue 12.34 USD to Jane");
    // A value is text, never a template: braces and ICU syntax in it stay as they are, and are not filled again.
    expect(fillSentence("To {customer}", { customer: "{amount} {x, plural, other {#}}", amount: "9" })).toBe(
      "To {amount} {x, plural, other {#}}",
    );
    expect(fillSentence("Keep {missing}", {})).toBe("Keep {missing}");
    expect(fillSentence("No {toString} from the prototype", {})).toBe("No {toString} from the prototype");
  });

  it("the proposal's own sentence when it has one, else the kind's message with the same values", () => {
    const review = { sentence: { amount: "5" } };
    expect(
      reviewSentence({ ...review, sentenceText: "Give {amount} until {expires}" }, { expires: "14:00" }, () => "no"),
    ).toBe("Give 5 until 14:00");
    expect(reviewSentence(review, { expires: "14:00" }, (v) => `msg ${v.amount} ${v.expires}`)).toBe("msg 5 14:00");
  });
});
