import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { bodyTooLargeProblem, readCappedBody } from "@/lib/config/body-limits";

/**
 * The refusal of a body over its cap: invalid_arguments (the agent API's problem shape) answered with HTTP
 * 413 instead of the code's usual 400 (see httpStatusOf in lib/server/http/staff-route.ts).
 */
export class BodyTooLargeError extends AppError {
  readonly httpStatus = 413;
  constructor(max: number) {
    const { code, error } = bodyTooLargeProblem(max);
    super(code, error.message, { problems: error.problems });
  }
}

/** The body read under its cap, or the refusal thrown: BodyTooLargeError, or invalid_arguments if unreadable. */
export async function cappedBodyOrThrow(
  req: Request,
  max: number,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; text: string }> {
  const body = await readCappedBody(req, max);
  if (body.ok) return body;
  if (body.reason === "too_large") throw new BodyTooLargeError(max);
  throw new AppError("invalid_arguments", "The request body could not be read.");
}
