// Response headers of every page, and the origin rule for server actions (used by proxy.ts). Pure code:
// unit-tested in security-headers.test.ts, exercised end to end in e2e/security-headers.spec.ts.

/** A fresh nonce for one response: 16 random bytes, base64. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The Content-Security-Policy of a page. Scripts run only with this response's nonce (Next.js puts it on
 * its own scripts when it finds it in the request's policy); 'strict-dynamic' lets those load their
 * chunks. Styles allow 'unsafe-inline' because React writes style attributes, which a nonce cannot cover.
 * No framing at all (frame-ancestors 'none').
 */
export function contentSecurityPolicy(nonce: string, opts: { dev?: boolean; https?: boolean } = {}): string {
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${opts.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    `connect-src 'self'${opts.dev ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  if (opts.https) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}

/** Headers set beside the policy. HSTS only over https (a browser ignores it over http anyway). */
export function securityHeaders(opts: { https: boolean }): Record<string, string> {
  const headers: Record<string, string> = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
  };
  if (opts.https) headers["Strict-Transport-Security"] = "max-age=63072000; includeSubDomains";
  return headers;
}

type HeaderGetter = { get(name: string): string | null };

/**
 * The host and scheme the browser used. X-Forwarded-Host / -Proto are believed only when TRUST_PROXY=1
 * says a reverse proxy in front sets them; otherwise anyone could send them. `next start` itself speaks
 * plain http, so https can only come through such a proxy (Next.js derives the URL's scheme from
 * X-Forwarded-Proto, so the URL is no evidence either).
 */
export function requestOrigin(headers: HeaderGetter, url: URL, trustProxy: boolean): { host: string; https: boolean } {
  const forwardedHost = trustProxy ? headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  const forwardedProto = trustProxy ? headers.get("x-forwarded-proto")?.split(",")[0]?.trim() : undefined;
  const host = forwardedHost || headers.get("host") || url.host;
  return { host, https: trustProxy && (forwardedProto ? forwardedProto === "https" : url.protocol === "https:") };
}

/**
 * Whether a state-changing request to a page (a server action: POST) may proceed. Next.js lets a request
 * without an Origin header through; here it must carry one, and it must be this host.
 */
export function actionOriginProblem(
  method: string,
  origin: string | null,
  host: string,
): "missing_origin" | "foreign_origin" | null {
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return null;
  if (!origin || origin === "null") return "missing_origin";
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return "foreign_origin";
  }
  return originHost === host ? null : "foreign_origin";
}
