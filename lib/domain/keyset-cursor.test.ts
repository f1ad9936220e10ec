// The page cursor accepts exactly what encodeKeysetCursor produces; anything else is invalid_arguments
// with the same safe message (mutation testing: each refusal below fails if its guard is removed).
import { describe, expect, it } from "vitest";
import { decodeKeysetCursor, encodeKeysetCursor } from "./keyset-cursor";
import { AppError } from "./outcome";

const ID = "6f1c1a7e-6a0b-4b8e-9c59-0d3c7a1e2f10";
const AT = "2026-11-30T10:00:00.123Z";
const token = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

function refusal(cursor: string): unknown {
  try {
    decodeKeysetCursor(cursor);
  } catch (error) {
    return error;
  }
  return "accepted";
}

describe("keyset cursor", () => {
  it("is the base64url of [iso time, id]", () => {
    const cursor = encodeKeysetCursor({ at: new Date(AT), id: ID });
    expect(cursor).toBe(token([AT, ID]));
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it("accepts upper-case ids and keeps the millisecond", () => {
    const upper = ID.toUpperCase();
    expect(decodeKeysetCursor(token([AT, upper]))).toEqual({ at: new Date(AT), id: upper });
    expect(decodeKeysetCursor(token([AT, ID])).at.getTime()).toBe(Date.parse(AT));
  });

  it("refuses every malformed token with invalid_arguments and a safe message", () => {
    const bad = [
      "",
      "garbage",
      token({ at: AT, id: ID }),
      token([AT]),
      token(["not a date", ID]),
      token([AT, 42]),
      // An array holding a uuid would pass the pattern once stringified: the id must be a string.
      token([AT, [ID]]),
      token([AT, ID.slice(1)]),
      token([AT, `${ID}0`]),
      token([AT, `x${ID}`]),
      token([AT, `${ID}x`]),
      token([AT, `${ID.slice(0, 35)}g`]),
      token([AT, "1 OR 1=1 -- aaaaaaaaaaaaaaaaaaaaaaaa"]),
    ];
    for (const cursor of bad) {
      const error = refusal(cursor);
      expect(error, cursor).toBeInstanceOf(AppError);
      expect(error).toMatchObject({
        code: "invalid_arguments",
        message: "The page cursor is not valid; start from the first page.",
        details: {
          problems: [
            { path: "$.cursor", expected: "the nextCursor of the previous page", message: "Not a valid page cursor." },
          ],
        },
      });
    }
  });

  it("accepts an id of exactly 36 characters from the hex-and-dash alphabet", () => {
    expect(decodeKeysetCursor(token([AT, "0123456789abcdef-ABCDEF-0123456789ab"])).id).toBe(
      "0123456789abcdef-ABCDEF-0123456789ab",
    );
  });
});
