"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useAdminRequest } from "../../_components/use-admin-request";
import { declarationKeys } from "./declaration";

export type DeclarationDecision = "approve" | "reject" | "cancel" | "retire";

/**
 * One decision on a declaration version (POST /api/admin/actions/{id}/{decision}): the admin request (its error, its
 * step-up ask) and, once the server accepted it, the list read again.
 */
export function useDeclarationDecision() {
  const request = useAdminRequest<{ status: string }>();
  const client = useQueryClient();
  async function send(id: string, decision: DeclarationDecision, body: Record<string, unknown> = {}) {
    const r = await request.run("POST", `/api/admin/actions/${encodeURIComponent(id)}/${decision}`, body);
    if (r) await client.invalidateQueries({ queryKey: declarationKeys.all });
    return r;
  }
  return { send, pending: request.pending, error: request.error, needsStepUp: request.needsStepUp };
}
