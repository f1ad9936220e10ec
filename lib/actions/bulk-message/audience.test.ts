// The bulk message's pure parts: the recipients' digest (order-independent, sensitive to any id), the mask, and the
// tolerance rule (recipients added and removed, counted together, against the approved count; 0 % = any change).
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { beyondTolerance, maskContact, maskedSample, recipientsDigest } from "./audience";

describe("recipientsDigest", () => {
  it("is SHA-256 of the JSON array of the ids in code-unit order, whatever order they come in", () => {
    const expected = createHash("sha256")
      .update(JSON.stringify(["a-1", "b-2", "c-3"]))
      .digest("hex");
    expect(recipientsDigest(["c-3", "a-1", "b-2"])).toBe(expected);
    expect(recipientsDigest(["b-2", "c-3", "a-1"])).toBe(expected);
    expect(recipientsDigest(["a-1", "b-2"])).not.toBe(expected);
    expect(recipientsDigest(["a-1", "b-2", "c-4"])).not.toBe(expected);
  });
});

describe("maskContact and the sample", () => {
  it("shows enough to recognise an address, not to read it; five at most", () => {
    expect(maskContact("ana.garcia@example.com")).toBe("a•••@e•••.com");
    expect(maskContact("+34612345678")).toBe("+34•••••••78");
    const recipients = Array.from({ length: 7 }, (_, i) => ({ id: `c${i}`, contact: `x${i}@shop.es` }));
    expect(maskedSample(recipients)).toEqual(Array(5).fill("x•••@s•••.es"));
  });
});

describe("beyondTolerance", () => {
  const approved = ["a", "b", "c", "d"];
  it("0 %: any change of the digest, even a swap that keeps the count", () => {
    expect(beyondTolerance(approved, ["d", "c", "b", "a"], 0)).toBe(false);
    expect(beyondTolerance(approved, ["a", "b", "c", "e"], 0)).toBe(true);
    expect(beyondTolerance(approved, ["a", "b", "c"], 0)).toBe(true);
  });
  it("n %: the recipients added and removed together, more than n % of the approved count", () => {
    expect(beyondTolerance(approved, ["a", "b", "c", "d", "e"], 25)).toBe(false); // 1 of 4 = 25 %
    expect(beyondTolerance(approved, ["a", "b", "c", "e"], 25)).toBe(true); // 1 removed + 1 added = 50 %
    expect(beyondTolerance(approved, ["a", "b", "c", "e"], 50)).toBe(false);
    expect(beyondTolerance(approved, [], 99)).toBe(true);
  });
});
