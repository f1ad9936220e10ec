import "server-only";
import type { z } from "zod";
import type { AppError } from "@/lib/domain/outcome";
import { inputProblems, invalidArguments } from "@/lib/domain/validation";

/**
 * A zod failure of a staff form as the one error type: `invalid_arguments` with every problem in the one
 * details shape (lib/domain/validation.ts), and the first problem, named by its field, as the message a form
 * shows.
 */
export function zodProblem(error: z.ZodError): AppError {
  const problems = inputProblems(error);
  const first = problems[0];
  const field = first?.path.replace(/^\$\.?/, "");
  return invalidArguments(first ? `${field ? `${field}: ` : ""}${first.message}` : "Invalid input.", problems);
}

/** The parsed form, or the `invalid_arguments` AppError of `zodProblem`. */
export function parseForm<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw zodProblem(parsed.error);
  return parsed.data;
}
