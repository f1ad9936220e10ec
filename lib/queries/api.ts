// The client's one fetcher: same-origin JSON, the server's error shape `{code, error:{message,…}}` turned
// into an ApiError, and every successful answer validated against its DTO schema (lib/schemas), so a
// response that drifted from the contract fails loudly here instead of rendering wrong data.
// Takes any zod v4 schema (classic `zod` or `zod/mini`: both are a core $ZodType); DTO schemas that reach
// the browser are written with zod/mini so the full zod library stays out of the client bundle.
import { safeParse } from "zod/mini";
import type { $ZodType, output } from "zod/v4/core";

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown>,
    readonly status: number,
  ) {
    super(message);
  }
}

export async function api<S extends $ZodType>(path: string, schema: S, init?: RequestInit): Promise<output<S>> {
  const res = await fetch(path, { ...init, headers: { "content-type": "application/json", ...(init?.headers ?? {}) }, cache: "no-store" });
  const body = (await res.json().catch(() => ({}))) as { code?: string; error?: { message?: string } & Record<string, unknown> };
  if (!res.ok) throw new ApiError(body.code ?? "internal_error", body.error?.message ?? `Request failed (${res.status})`, body.error ?? {}, res.status);
  const parsed = safeParse(schema, body);
  if (!parsed.success) {
    throw new ApiError(
      "internal_error",
      `The server's answer to ${path.split("?")[0]} did not have the expected shape.`,
      { problems: parsed.error.issues.slice(0, 5).map((i) => ({ path: i.path.join("."), message: i.message })) },
      res.status,
    );
  }
  return parsed.data;
}
