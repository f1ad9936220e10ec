import { getCsrfToken, signIn } from "next-auth/react";

// next-auth sets a new CSRF cookie for each of the first parallel requests of a fresh browser, so
// the very first sign-in can be refused with `?csrf=true`. We fetch the token first (one request,
// one cookie) and retry once if the CSRF check still failed. Used by the sign-in form and by the setup
// form (which signs the new person in with the password they just set).
export async function signInWithCsrfRetry(email: string, password: string) {
  for (let attempt = 0; attempt < 2; attempt++) {
    await getCsrfToken();
    const res = await signIn("credentials", { redirect: false, email, password });
    const csrfRejected = !!res?.url && res.url.includes("csrf=true");
    if (!csrfRejected) return res;
  }
  return { ok: false, error: "CSRF", url: null, status: 403 };
}

/** Whether a credentials sign-in answer means the session now exists. */
export const signedIn = (res: Awaited<ReturnType<typeof signInWithCsrfRetry>> | undefined) =>
  !!res && !res.error && !(res.url && res.url.includes("error="));
