/** Only same-site paths may be a post-sign-in destination (no open redirects). */
export function safeCallbackPath(value: string | undefined | null): string {
  if (!value) return "/";
  let path = value;
  // next-auth may hand back an absolute URL of this site; keep only its path.
  if (/^https?:\/\//i.test(value)) {
    if (!URL.canParse(value)) return "/";
    const u = new URL(value);
    path = u.pathname + u.search;
  }
  if (!path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\") || path.startsWith("/sign-in") || path.startsWith("/api/")) return "/";
  return path;
}
