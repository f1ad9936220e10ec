import { describe, expect, it } from "vitest";
import { confirmationFor, needsCustomer, needsReviewers, raiseConfirmation } from "./confirmation-policy";

const none = { customerConfirmationKinds: [] as string[] };

describe("confirmationFor", () => {
  it("is the kind's floor, reviewers when it declares none", () => {
    expect(confirmationFor(undefined, {}, none, "k")).toBe("reviewers");
    expect(confirmationFor({ floor: "customer" }, {}, none, "k")).toBe("customer");
    expect(confirmationFor({ floor: "both" }, {}, none, "k")).toBe("both");
  });
  it("the params raise the customer's floor to both, never lower a floor", () => {
    const policy = { floor: "customer" as const, reviewersToo: (p: unknown) => (p as { far: boolean }).far };
    expect(confirmationFor(policy, { far: true }, none, "k")).toBe("both");
    expect(confirmationFor(policy, { far: false }, none, "k")).toBe("customer");
    expect(confirmationFor({ floor: "reviewers", reviewersToo: () => true }, {}, none, "k")).toBe("reviewers");
  });
  it("the tenant raises a kind it lists to the customer too; another kind is untouched", () => {
    const tenant = { customerConfirmationKinds: ["refund"] };
    expect(confirmationFor({ floor: "reviewers" }, {}, tenant, "refund")).toBe("both");
    expect(confirmationFor({ floor: "customer" }, {}, tenant, "refund")).toBe("customer");
    expect(confirmationFor({ floor: "reviewers" }, {}, tenant, "cancel_order")).toBe("reviewers");
  });
  it("raise and the two needs", () => {
    expect(raiseConfirmation("reviewers", "customer")).toBe("both");
    expect(raiseConfirmation("both", "reviewers")).toBe("both");
    expect([needsCustomer("reviewers"), needsCustomer("customer"), needsCustomer("both")]).toEqual([false, true, true]);
    expect([needsReviewers("reviewers"), needsReviewers("customer"), needsReviewers("both")]).toEqual([
      true,
      false,
      true,
    ]);
  });
});
