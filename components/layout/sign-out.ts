/**
 * next-auth's documented REST sign-out (what `signOut({ redirect: false })` of next-auth/react does: fetch
 * the CSRF token, POST it to /api/auth/signout), without shipping next-auth/react (~10 KiB gzip) on every
 * dashboard page.
 */
export async function signOut() {
  const { csrfToken } = (await (await fetch("/api/auth/csrf", { cache: "no-store" })).json()) as { csrfToken: string };
  const res = await fetch("/api/auth/signout", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1" },
    body: new URLSearchParams({ csrfToken, callbackUrl: "/sign-in", json: "true" }),
  });
  if (!res.ok) throw new Error(`sign-out answered ${res.status}`);
}
