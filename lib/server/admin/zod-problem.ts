import "server-only";
import type { z } from "zod";
import { AppError } from "@/lib/domain/outcome";

/** A zod failure as the one error type: invalid_arguments with each problem's path and message. */
export function zodProblem(error: z.ZodError): AppError {
  const problems = error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  const first = problems[0];
  return new AppError("invalid_arguments", first ? `${first.path ? `${first.path}: ` : ""}${first.message}` : "Invalid input.", { problems });
}
