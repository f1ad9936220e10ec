// Parse → invalid_arguments, one way everywhere: every endpoint and use case that validates input with a
// zod schema answers a failure with the same `details` shape the agent gateway uses (docs/agent-api.md
// "Errors the agent can recover from"): `{ problems: [{ path: "$.field", expected, message }] }`.
import type { z } from "zod";
import { validationProblems } from "./agent-protocol";
import { AppError } from "./outcome";

export type InputProblem = { path: string; expected: string; message: string };

/** Every problem of a failed parse, each with its JSON path and what was expected. */
export function inputProblems(error: z.ZodError): InputProblem[] {
  return validationProblems(error.issues);
}

/** The parsed value, or an `invalid_arguments` AppError listing every problem. */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown, message: string): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw invalidArguments(message, inputProblems(parsed.error));
  return parsed.data;
}

/** An `invalid_arguments` error in the one details shape (extra keys, e.g. a `reason`, sit beside `problems`). */
export function invalidArguments(
  message: string,
  problems: InputProblem[],
  extra: Record<string, unknown> = {},
): AppError {
  return new AppError("invalid_arguments", message, { ...extra, problems });
}

/** A UUID in its text form, any version (ids in URLs are checked with it before they reach a `where`). */
/** A form field whose value is taken already (a unique name, slug or email): `invalid_arguments` naming the field. */
export function takenError(field: string, message: string): AppError {
  return new AppError("invalid_arguments", message, { field, problem: "taken" });
}

export const UUID_PATTERN = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";
const uuid = new RegExp(UUID_PATTERN);

export function isUuid(value: string): boolean {
  return uuid.test(value);
}
