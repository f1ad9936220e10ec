import { describe, expect, it } from "vitest";
import { z } from "zod";
import { decodeKeysetCursor, encodeKeysetCursor } from "./keyset-cursor";
import { isAppError } from "./outcome";
import { parseInput, takenError } from "./validation";

const schema = z.strictObject({ proposalId: z.uuid(), amountMinor: z.number().int().positive() });

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("parseInput", () => {
  it("returns the parsed value", () => {
    const id = "6f1c1a7e-6a0b-4b8e-9c59-0d3c7a1e2f10";
    expect(parseInput(schema, { proposalId: id, amountMinor: 5 }, "bad")).toEqual({ proposalId: id, amountMinor: 5 });
  });

  it("throws invalid_arguments listing every problem with its JSON path and what was expected", () => {
    const error = caught(() =>
      parseInput(schema, { proposalId: "x", amountMinor: 1.5, extra: 1 }, "The request is malformed."),
    );
    expect(isAppError(error)).toBe(true);
    if (!isAppError(error)) return;
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toBe("The request is malformed.");
    const problems = error.details?.problems as { path: string; expected: string; message: string }[];
    expect(problems.map((p) => p.path).sort()).toEqual(["$.amountMinor", "$.extra", "$.proposalId"]);
    for (const p of problems) {
      expect(p.expected.length).toBeGreaterThan(0);
      expect(p.message.length).toBeGreaterThan(0);
    }
  });
});

describe("keyset cursor", () => {
  it("round-trips a position", () => {
    const at = new Date("2026-11-30T10:00:00.123Z");
    const id = "6f1c1a7e-6a0b-4b8e-9c59-0d3c7a1e2f10";
    expect(decodeKeysetCursor(encodeKeysetCursor({ at, id }))).toEqual({ at, id });
  });

  it("refuses garbage, a bad date and a bad id as invalid_arguments", () => {
    const bad = [
      "garbage",
      Buffer.from(JSON.stringify(["not a date", "6f1c1a7e-6a0b-4b8e-9c59-0d3c7a1e2f10"])).toString("base64url"),
      Buffer.from(JSON.stringify(["2026-11-30T10:00:00.000Z", "1 OR 1=1"])).toString("base64url"),
    ];
    for (const cursor of bad) {
      const error = caught(() => decodeKeysetCursor(cursor));
      expect(isAppError(error) && error.code).toBe("invalid_arguments");
    }
  });
});

describe("takenError", () => {
  it("is invalid_arguments naming the field, with problem taken", () => {
    const error = takenError("slug", "A channel with this name already exists.");
    expect(isAppError(error)).toBe(true);
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toBe("A channel with this name already exists.");
    expect(error.details).toEqual({ field: "slug", problem: "taken" });
  });
});
