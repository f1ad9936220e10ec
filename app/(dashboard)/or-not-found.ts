import { notFound } from "next/navigation";
import { isAppError, type ErrorCode } from "@/lib/domain/outcome";

/**
 * A detail page's lookup through its use case: a row the use case does not find — unknown, or another tenant's,
 * which the data layer does not find either — is the page's 404, the same whatever the reason, so the page says
 * nothing about it. `codes` adds refusals that mean the same here (a malformed id). Anything else is thrown on.
 */
export function orNotFound<T>(lookup: Promise<T>, codes: readonly ErrorCode[] = ["not_found"]): Promise<T> {
  return lookup.catch((error: unknown) => {
    if (isAppError(error) && codes.includes(error.code)) notFound();
    throw error;
  });
}
