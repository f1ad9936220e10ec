// What a refused password sign-in tells the person, carried through next-auth: its credentials callback can only
// pass a string (the `error` of the redirect or of `signIn(…, {redirect: false})`). Pure, used by the server
// (lib/server/auth/options.ts) and by the sign-in page and form.

const PAUSED = "SignInPaused:";

/** The error string of a sign-in refused because the account is paused until `until`. */
export function signInPausedError(until: Date): string {
  return `${PAUSED}${until.toISOString()}`;
}

export type SignInProblem = { kind: "failed" } | { kind: "ssoFailed" } | { kind: "paused"; until: Date };

/**
 * The problem an `error` string names: a pause with its end, the generic credentials failure, or (any other
 * next-auth error on the page's URL) a failed single sign-on. A malformed pause string is the generic failure.
 */
export function signInProblem(error: string | null | undefined, fallback: "failed" | "ssoFailed"): SignInProblem {
  if (error?.startsWith(PAUSED)) {
    const until = new Date(error.slice(PAUSED.length));
    return Number.isNaN(until.getTime()) ? { kind: "failed" } : { kind: "paused", until };
  }
  if (error === "CredentialsSignin") return { kind: "failed" };
  return { kind: fallback };
}
