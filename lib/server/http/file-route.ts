import "server-only";
import { requireActor, type Actor } from "@/lib/server/auth/actor";
import { errorResponse, knownError } from "@/lib/server/http/error-response";

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
      return errorResponse(knownError(error, request, "file route failed"));
    }
  };
}
