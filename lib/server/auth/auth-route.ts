import "server-only";
import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { AppError } from "@/lib/domain/outcome";
import { BODY_LIMITS, readCappedBody } from "@/lib/config/body-limits";
import { authOptions } from "@/lib/server/auth/options";
import { BodyTooLargeError } from "@/lib/server/http/body-too-large";
import { errorResponse } from "@/lib/server/http/error-response";

type Ctx = { params: Promise<{ nextauth: string[] }> };

/**
 * next-auth's route handler (/api/auth/*) behind the body cap. next-auth reads a POST body whole
 * (`req.text()` / `req.json()`) before it checks anything, and these endpoints are open to anyone: here the
 * body is read first, capped while it streams (BODY_LIMITS.auth), and next-auth gets a request carrying
 * the bytes already read. Over the cap: 413 in the common error shape, and next-auth never runs.
 */
export async function authRoute(req: NextRequest, ctx: Ctx): Promise<Response> {
  let checked = req;
  if (req.method !== "GET" && req.method !== "HEAD") {
    const body = await readCappedBody(req, BODY_LIMITS.auth);
    if (!body.ok) {
      return errorResponse(
        body.reason === "too_large"
          ? new BodyTooLargeError(BODY_LIMITS.auth)
          : new AppError("invalid_arguments", "The request body could not be read."),
      );
    }
    checked = new NextRequest(req.url, { method: req.method, headers: req.headers, body: body.bytes });
  }
  // eslint-disable-next-line @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-call -- next-auth 4 types the route handler NextAuth() returns as any
  return NextAuth(authOptions())(checked, ctx);
}
