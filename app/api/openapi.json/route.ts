import { buildOpenApiDocument } from "@/lib/schemas/openapi";

export const dynamic = "force-dynamic";

// Built on first request and kept: the document depends only on the code of this build.
let document: string | null = null;

/** GET /api/openapi.json — the OpenAPI 3.1 description of every route (public: it holds no data). */
export function GET(): Response {
  document ??= JSON.stringify(buildOpenApiDocument());
  return new Response(document, {
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}
