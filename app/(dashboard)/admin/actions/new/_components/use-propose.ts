"use client";

import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { AdminError } from "../../../_components/use-admin-request";
import { declarationKeys, type DeclarationRow } from "../../_components/declaration";

/** One problem the server found, at its path (the contract's `error.problems`). */
export type ServerProblem = { path: string; message: string };

type Answer = {
  declaration?: DeclarationRow;
  code?: string;
  error?: { message?: string; reason?: string; problems?: { path?: unknown; message?: unknown }[] };
};

/**
 * POST /api/admin/actions. Unlike the other admin forms (use-admin-request.ts keeps the first problem only), this keeps
 * every problem the server lists, so each can be shown at its own box. A step-up ask turns on the password field.
 */
export function usePropose() {
  const client = useQueryClient();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<AdminError | null>(null);
  const [problems, setProblems] = useState<ServerProblem[]>([]);
  const [needsStepUp, setNeedsStepUp] = useState(false);

  async function propose(body: Record<string, unknown>): Promise<DeclarationRow | null> {
    setPending(true);
    setError(null);
    setProblems([]);
    try {
      const res = await fetch("/api/admin/actions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        credentials: "same-origin",
      });
      const json = (await res.json().catch(() => null)) as Answer | null;
      if (res.ok && json?.declaration) {
        setNeedsStepUp(false);
        await client.invalidateQueries({ queryKey: declarationKeys.all });
        return json.declaration;
      }
      const reason = json?.error?.reason;
      if (reason === "step_up_required" || reason === "step_up_failed") setNeedsStepUp(true);
      setError({ code: json?.code ?? "internal_error", message: json?.error?.message ?? `HTTP ${res.status}`, reason });
      setProblems(
        (json?.error?.problems ?? []).flatMap((p) =>
          typeof p.path === "string" && typeof p.message === "string" ? [{ path: p.path, message: p.message }] : [],
        ),
      );
      return null;
    } catch {
      setError({ code: "internal_error", message: "The server could not be reached." });
      return null;
    } finally {
      setPending(false);
    }
  }

  return { propose, pending, error, problems, needsStepUp };
}
