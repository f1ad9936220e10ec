// The client's one fetcher: same-origin JSON, the server's error shape `{code, error:{message,…}}` turned
// into an ApiError, and every successful answer validated against its DTO schema (lib/schemas), so a
// response that drifted from the contract fails loudly here instead of rendering wrong data.
// Takes any zod v4 schema (classic `zod` or `zod/mini`) — or a function that loads one (`() =>
// import("@/lib/schemas/x-dto").then((m) => m.xDto)`), so a page whose first paint comes from the server
// downloads zod with its first refetch instead of with the page (the /queue JavaScript budget, bench:ui).
// Validation goes through the schema's Standard Schema interface: this file imports no zod code itself.
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

/** A DTO schema, or a loader of one (code-split: the schema and zod arrive when first needed). */
export type SchemaRef<S extends $ZodType> = S | (() => Promise<S>);

export async function api<S extends $ZodType>(
  path: string,
  schema: SchemaRef<S>,
  init?: RequestInit,
): Promise<output<S>> {
  const res = await fetch(path, {
    ...init,
    headers: { "content-type": "application/json", ...(init?.headers ?? {}) },
    cache: "no-store",
  });
  const body = (await res.json().catch(() => ({}))) as {
    code?: string;
    error?: { message?: string } & Record<string, unknown>;
  };
  if (!res.ok)
    throw new ApiError(
      body.code ?? "internal_error",
      body.error?.message ?? `Request failed (${res.status})`,
      body.error ?? {},
      res.status,
    );
  const resolved = typeof schema === "function" ? await schema() : schema;
  const parsed = await resolved["~standard"].validate(body);
  if (parsed.issues) {
    throw new ApiError(
      "internal_error",
      `The server's answer to ${path.split("?")[0]} did not have the expected shape.`,
      {
        problems: parsed.issues.slice(0, 5).map((i) => ({
          path: (i.path ?? []).map((p) => String(typeof p === "object" ? p.key : p)).join("."),
          message: i.message,
        })),
      },
      res.status,
    );
  }
  return parsed.value;
}
