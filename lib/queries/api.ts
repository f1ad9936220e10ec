// The client's one fetcher: same-origin JSON, the server's error shape `{code, error:{message,…}}` turned
// into an ApiError. `api(path, schema)` validates a successful answer against its DTO schema (lib/schemas),
// so a response that drifted from the contract fails loudly here instead of rendering wrong data.
// Takes any zod v4 schema (classic `zod` or `zod/mini`) — or a function that loads one (`() =>
// import("@/lib/schemas/x-dto").then((m) => m.xDto)`), so a page whose first paint comes from the server
// downloads zod with its first action instead of with the page (the JavaScript budgets, bench:ui).
// `apiTyped<T>(path)` reads an answer as its DTO type without checking it at run time: for the reads a live
// page repeats on its first load (the change stream's "ready" re-reads them at once), where a schema would
// put zod's ~35 KiB on that load. Why that is safe: docs/architecture.md, "JavaScript budget".
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

/** Fetches a same-origin JSON answer; a non-2xx answer becomes an ApiError with the server's code. */
async function request(path: string, init?: RequestInit): Promise<{ status: number; body: unknown }> {
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
  return { status: res.status, body };
}

export async function api<S extends $ZodType>(
  path: string,
  schema: SchemaRef<S>,
  init?: RequestInit,
): Promise<output<S>> {
  // A lazily referenced schema loads while the request is in flight, not after it.
  const loading = typeof schema === "function" ? schema() : Promise.resolve(schema);
  loading.catch(() => {}); // awaited below; a failed request must not leave this rejection unhandled
  const { status, body } = await request(path, init);
  const resolved = await loading;
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
      status,
    );
  }
  return parsed.value;
}

/**
 * A same-origin answer read as `T` (its DTO's type), not checked at run time — only for the reads a live page
 * repeats on its first load (see the header). The server's use case returns the same type (the compiler holds
 * both ends to it) and tests/integration/client-dto-contract.test.ts parses real answers with the DTO schema.
 */
export async function apiTyped<T>(path: string, init?: RequestInit): Promise<T> {
  return (await request(path, init)).body as T;
}
