/**
 * The one parser for every redirect target (the post-sign-in callbackUrl, next-auth's own redirects after
 * sign-in and sign-out). A prefix check is not enough: a browser drops TAB, LF and CR anywhere in a URL and
 * reads `\` as `/`, so `/<TAB>/evil.example` or `/\evil.example` pass "starts with one slash" and still
 * leave the site. Here the target is resolved exactly as the browser will resolve it — the WHATWG URL
 * parser, against our own origin — and only a result on that same origin is kept, as a path
 * (pathname + query + fragment) that cannot be read as another host again.
 * Returns null when the target is not a same-origin URL.
 */
export function sameOriginPath(target: string | null | undefined, origin: string): string | null {
  if (!target || !URL.canParse(origin)) return null;
  const base = new URL(origin);
  if (base.protocol !== "http:" && base.protocol !== "https:") return null;
  if (!URL.canParse(target, base.origin)) return null;
  const url = new URL(target, base.origin);
  if (url.origin !== base.origin || url.username || url.password) return null;
  const path = url.pathname + url.search + url.hash;
  // What we return is resolved once more by whoever follows it: "//host" there would be a host again.
  if (!path.startsWith("/") || path.startsWith("//")) return null;
  return path;
}

/** Pages a sign-in must not come back to: the sign-in page itself (a loop) and the API. */
const NOT_A_DESTINATION = [/^\/sign-in/, /^\/api\//];

/** Where to go after signing in: a same-origin path (sameOriginPath), never back to sign-in or an API; else "/". */
export function safeCallbackPath(target: string | null | undefined, origin: string): string {
  const path = sameOriginPath(target, origin);
  if (!path || NOT_A_DESTINATION.some((re) => re.test(path))) return "/";
  return path;
}
