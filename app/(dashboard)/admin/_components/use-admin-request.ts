"use client";

import { useState } from "react";
import type * as React from "react";
import { useRouter } from "next/navigation";

/** A refusal: its code and message, and for bad input the field it names (`details.field`, or the first problem's path). */
export type AdminError = { code: string; message: string; reason?: string; field?: string; problem?: string };

type ErrorDetails = {
  message?: string;
  reason?: string;
  field?: unknown;
  problem?: unknown;
  problems?: { path?: unknown }[];
};

function fieldOf(details: ErrorDetails | undefined): string | undefined {
  if (typeof details?.field === "string") return details.field;
  const path = details?.problems?.[0]?.path;
  return typeof path === "string" ? path.replace(/^\$\.?/, "") || undefined : undefined;
}

/**
 * Calls one /api/admin/… route from an admin page (the pages use the same JSON API as automation).
 * When the server asks for step-up (`reason: "step_up_required"`), `needsStepUp` turns on and the form
 * shows a password field; the next submit sends it as `stepUpPassword`. Refreshes the page's server data
 * after a success.
 */
export function useAdminRequest<T = unknown>() {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<AdminError | null>(null);
  const [needsStepUp, setNeedsStepUp] = useState(false);

  async function run(
    method: "POST" | "PUT" | "PATCH" | "DELETE",
    path: string,
    body?: Record<string, unknown>,
  ): Promise<T | null> {
    setPending(true);
    setError(null);
    try {
      const res = await fetch(path, {
        method,
        headers: body ? { "content-type": "application/json" } : undefined,
        body: body ? JSON.stringify(body) : undefined,
        credentials: "same-origin",
      });
      if (res.status === 204) {
        router.refresh();
        return {} as T;
      }
      const json = (await res.json().catch(() => null)) as (T & { code?: string; error?: ErrorDetails }) | null;
      if (!res.ok || !json) {
        const reason = json?.error?.reason;
        if (reason === "step_up_required" || reason === "step_up_failed") setNeedsStepUp(true);
        setError({
          code: json?.code ?? "internal_error",
          message: json?.error?.message ?? `HTTP ${res.status}`,
          reason,
          field: fieldOf(json?.error),
          problem: typeof json?.error?.problem === "string" ? json.error.problem : undefined,
        });
        return null;
      }
      setNeedsStepUp(false);
      router.refresh();
      return json;
    } catch {
      setError({ code: "internal_error", message: "The server could not be reached." });
      return null;
    } finally {
      setPending(false);
    }
  }
  /**
   * A form's submit: sends the body read from its fields and, when `reset` is set and the server accepted it,
   * empties the form (a secret or a new row's fields are not left behind for the next entry).
   */
  async function submit(
    e: React.FormEvent<HTMLFormElement>,
    method: "POST" | "PUT",
    path: string,
    body: (fields: FormData) => Record<string, unknown>,
    reset = false,
  ): Promise<T | null> {
    e.preventDefault();
    const form = e.currentTarget;
    const r = await run(method, path, body(new FormData(form)));
    if (r && reset) form.reset();
    return r;
  }

  return { run, submit, pending, error, needsStepUp };
}
