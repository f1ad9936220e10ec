import { NextResponse, type NextRequest } from "next/server";

// Convenience only: a visitor without any session cookie is sent to sign-in with a way back.
// It never decides access: pages, actions and route handlers check the session and the permission
// in the data layer (lib/server/auth/actor.ts).
const SESSION_COOKIES = ["next-auth.session-token", "__Secure-next-auth.session-token"];

export function proxy(request: NextRequest) {
  const hasSession = SESSION_COOKIES.some((name) => request.cookies.has(name));
  if (hasSession) return NextResponse.next();
  const url = request.nextUrl.clone();
  url.pathname = "/sign-in";
  url.search = "";
  url.searchParams.set("callbackUrl", request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.redirect(url);
}

export const config = {
  matcher: ["/queue/:path*", "/executions/:path*", "/audit/:path*", "/admin/:path*", "/proposals/:path*", "/account/:path*"],
};
