import { describe, expect, it } from "vitest";
import { agentErrorCodes, errorCodes, httpStatusFor, staffOnlyErrorCodes } from "./outcome";
import { CLAIM_MINUTES } from "./proposal-claim";

describe("the review claim's code", () => {
  it("claimed_by_other is a staff-only 409, never part of the agent's outcome codes", () => {
    expect(errorCodes).toContain("claimed_by_other");
    expect(httpStatusFor("claimed_by_other")).toBe(409);
    expect(staffOnlyErrorCodes).toContain("claimed_by_other");
    expect(agentErrorCodes).not.toContain("claimed_by_other");
    expect(agentErrorCodes).not.toContain("unauthenticated");
    expect(agentErrorCodes).toContain("rejected");
  });

  it("a claim lasts minutes, not hours", () => {
    expect(CLAIM_MINUTES).toBeGreaterThan(0);
    expect(CLAIM_MINUTES).toBeLessThanOrEqual(30);
  });
});
