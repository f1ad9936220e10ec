// Keyset pagination cursors: an opaque base64url token for the (timestamp, id) of the last row of a page.
// One encoder/decoder for every list (queue, executions); a token that does not decode is invalid_arguments.
import { AppError } from "./outcome";

export type KeysetPosition = { at: Date; id: string };

const UUID_LIKE = /^[0-9a-f-]{36}$/i;

export function encodeKeysetCursor(position: KeysetPosition): string {
  return Buffer.from(JSON.stringify([position.at.toISOString(), position.id])).toString("base64url");
}

/** The position a token names, null when it names none; throws on a token that is not JSON of an array. */
function positionOf(cursor: string): KeysetPosition | null {
  const [iso, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as [string, string];
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) || typeof id !== "string" || !UUID_LIKE.test(id) ? null : { at, id };
}

export function decodeKeysetCursor(cursor: string): KeysetPosition {
  let position: KeysetPosition | null = null;
  try {
    position = positionOf(cursor);
  } catch {
    // not a token of ours: position stays null
  }
  if (!position)
    throw new AppError("invalid_arguments", "The page cursor is not valid; start from the first page.", {
      problems: [
        { path: "$.cursor", expected: "the nextCursor of the previous page", message: "Not a valid page cursor." },
      ],
    });
  return position;
}
