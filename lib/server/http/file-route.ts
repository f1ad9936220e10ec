import "server-only";
import { randomUUID } from "node:crypto";
import { AppError, httpStatusFor, isAppError } from "@/lib/domain/outcome";
import { requireActor, type Actor } from "@/lib/server/auth/actor";
import { log } from "@/lib/server/log";

export type FileAnswer = { filename: string; contentType: string; body: string };

/** Like staffRoute (GET only), for downloads: the handler returns a file, errors keep the JSON error shape. */
export function staffFileRoute<C>(handler: (actor: Actor, request: Request, context: C) => Promise<FileAnswer>) {
  return async (request: Request, context: C): Promise<Response> => {
    try {
      const actor = await requireActor();
      const file = await handler(actor, request, context);
      return new Response(file.body, {
        headers: {
          "Content-Type": file.contentType,
          "Content-Disposition": `attachment; filename="${file.filename.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
          "Cache-Control": "no-store",
          "X-Content-Type-Options": "nosniff",
        },
      });
    } catch (error) {
      const e = isAppError(error)
        ? error
        : new AppError("internal_error", `Something went wrong on our side (reference ${randomUUID()}).`);
      if (!isAppError(error))
        log.error(
          { err: error instanceof Error ? error.message : String(error), path: new URL(request.url).pathname },
          "file route failed",
        );
      return Response.json(
        { code: e.code, error: { message: e.message } },
        { status: httpStatusFor(e.code), headers: { "Cache-Control": "no-store" } },
      );
    }
  };
}
