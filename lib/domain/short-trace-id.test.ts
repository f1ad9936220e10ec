import { describe, expect, it } from "vitest";
import { shortTraceId } from "./short-trace-id";

describe("shortTraceId", () => {
  it("keeps an id that fits and marks a cut one with an ellipsis", () => {
    expect(shortTraceId("support-4711-abc")).toBe("support-4711-abc"); // exactly 16
    expect(shortTraceId("support-conversation-4711")).toBe("support-convers…");
    expect(shortTraceId("support-conversation-4711")).toHaveLength(16);
    expect(shortTraceId("4bf92f3577b34da6a3ce929d0e0e4736")).toBe("4bf92f3577b34da…");
    expect(shortTraceId("4bf92f3577b34da6a3ce929d0e0e4736", 64)).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
  });
  it("never splits a character in two", () => {
    expect(shortTraceId("😀".repeat(20), 4)).toBe("😀😀😀…");
  });
});
