import { isAppError } from "@/lib/domain/outcome";

/** The refusal a use case answered with (code, reason, problem, message); fails the test when it did not refuse. */
export async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error))
      return {
        code: error.code,
        reason: error.details?.reason,
        problem: error.details?.problem,
        message: error.message,
      };
    throw error;
  }
  throw new Error("expected a refusal");
}
