import { auditFilterKeys } from "@/lib/domain/audit-filters";
import { NextResponse, type NextRequest } from "next/server";
import {
  actionOriginProblem,
  contentSecurityPolicy,
  newNonce,
  requestOrigin,
  securityHeaders,
} from "@/lib/config/security-headers";
import { BODY_LIMITS, bodyTooLargeProblem, readCappedBody } from "@/lib/config/body-limits";

// Every page passes here (not the API, not static files):
// 1. A POST to a page is a server action: it must come from this origin (Origin present and equal to the
//    host), else 403 before Next.js sees it (Next.js lets a missing Origin through, and answers a foreign
//    one with a 500 and a stack in the log).
// 2. X-Forwarded-Host is replaced by the real Host unless TRUST_PROXY=1: Next.js compares an action's
//    Origin with it, so a forged one would make a cross-site action look same-site.
// 3. The body of a server action is read here under its cap (BODY_LIMITS.serverAction), while it streams:
//    over it is 413 in the common error shape before the action is decoded. Next.js enforces the same cap
//    again itself (next.config.js serverActions.bodySizeLimit), and copies at most proxyClientMaxBodySize
//    of a body for this proxy, so even an endless body is never held whole.
// 4. A Content-Security-Policy with a fresh nonce (Next.js reads it from the request and puts it on its
//    scripts), COOP/CORP, and HSTS over https.
// 5. Convenience only: a visitor without any session cookie is sent from a signed-in page to sign-in
//    with a way back. It never decides access: pages, actions and route handlers check the session and
//    the permission in the data layer (lib/server/auth/actor.ts).
const SESSION_COOKIES = ["next-auth.session-token", "__Secure-next-auth.session-token"];
const SIGNED_IN_PREFIXES = ["/queue", "/executions", "/audit", "/admin", "/proposals", "/account"];

export async function proxy(request: NextRequest) {
  const trustProxy = process.env.TRUST_PROXY === "1";
  const { host, https } = requestOrigin(request.headers, request.nextUrl, trustProxy);
  const problem = actionOriginProblem(request.method, request.headers.get("origin"), host);
  if (problem) {
    return new NextResponse(
      JSON.stringify({
        error: problem === "missing_origin" ? "This request needs an Origin header." : "Cross-origin request refused.",
      }),
      {
        status: 403,
        headers: { "content-type": "application/json", ...securityHeaders({ https }) },
      },
    );
  }

  if (request.method !== "GET" && request.method !== "HEAD" && request.method !== "OPTIONS") {
    const body = await readCappedBody(request, BODY_LIMITS.serverAction);
    if (!body.ok && body.reason === "too_large") {
      return new NextResponse(JSON.stringify(bodyTooLargeProblem(BODY_LIMITS.serverAction)), {
        status: 413,
        headers: { "content-type": "application/json", ...securityHeaders({ https }) },
      });
    }
  }

  const path = request.nextUrl.pathname;
  const signedInPage = SIGNED_IN_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));
  if (signedInPage && !SESSION_COOKIES.some((name) => request.cookies.has(name))) {
    const url = request.nextUrl.clone();
    url.pathname = "/sign-in";
    url.search = "";
    url.searchParams.set("callbackUrl", request.nextUrl.pathname + request.nextUrl.search);
    return NextResponse.redirect(url);
  }

  // A bare traceId on /audit (the Trace box, the proposal page's trace link) is the trace page: an HTTP redirect
  // before anything renders. The page's own redirect() comes after /audit's loading boundary has already sent a
  // 200 shell, which Next follows with a meta refresh *and* a client redirect — two requests for the trace page,
  // two `audit:view_trace` events for one lookup. (The page keeps its redirect as the fallback.)
  if (request.method === "GET" && path === "/audit") {
    const params = request.nextUrl.searchParams;
    const bare = params.get("traceId")?.trim() ?? "";
    if (bare && auditFilterKeys.every((k) => k === "traceId" || !params.get(k))) {
      const url = request.nextUrl.clone();
      url.pathname = `/audit/traces/${encodeURIComponent(bare)}`;
      url.search = "";
      return NextResponse.redirect(url, 307);
    }
  }

  const nonce = newNonce();
  const csp = contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === "development", https });
  const forwarded = new Headers(request.headers);
  forwarded.set("x-nonce", nonce);
  forwarded.set("content-security-policy", csp);
  if (!trustProxy) {
    forwarded.set("x-forwarded-host", request.headers.get("host") ?? request.nextUrl.host);
    forwarded.set("x-forwarded-proto", https ? "https" : "http");
  }
  const response = NextResponse.next({ request: { headers: forwarded } });
  response.headers.set("Content-Security-Policy", csp);
  for (const [name, value] of Object.entries(securityHeaders({ https }))) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: ["/((?!api/|_next/static|_next/image|favicon.ico).*)"],
};
