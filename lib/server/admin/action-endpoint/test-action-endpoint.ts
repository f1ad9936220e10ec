import "server-only";
import { randomUUID } from "node:crypto";
import { assertCan } from "@/lib/domain/permissions";
import type { ActionEndpointTest } from "@/lib/schemas/action-endpoint";
import { lookupAt } from "@/lib/server/action-endpoint/client";
import { ActionEndpointUnavailable, openActionEndpoint } from "@/lib/server/action-endpoint/stored-endpoint";
import type { Actor } from "@/lib/server/auth/actor";

export type { ActionEndpointTest } from "@/lib/schemas/action-endpoint";

/** "Test" waits at most this long for the shop (a read of one key). */
const TEST_TIMEOUT_MS = 5_000;

/**
 * "Test": one signed `GET {url}/{random key}` with the tenant's secret, the read the executor reconciles with
 * anyway, so it proves the URL, the route and the secret without causing any effect. Passes when the shop answers
 * 404 for the key it never saw (or, improbably, a well-formed answer); otherwise says why, as a code and a message
 * that never holds the secret.
 */
export async function testActionEndpoint(
  actor: Actor,
  options: { timeoutMs?: number } = {},
): Promise<ActionEndpointTest> {
  assertCan(actor.roles, "admin:manage");
  const started = performance.now();
  try {
    const endpoint = await openActionEndpoint(actor.tenantId);
    const answer = await lookupAt(endpoint, `probe_${randomUUID()}`, {
      timeoutMs: options.timeoutMs ?? TEST_TIMEOUT_MS,
    });
    const latencyMs = Math.round(performance.now() - started);
    if ("outcome" in answer) {
      if (answer.outcome === "not_found") return { ok: true, status: 404, latencyMs };
      if (answer.outcome === "refused")
        return {
          ok: false,
          problem: answer.httpStatus === 401 || answer.httpStatus === 403 ? "signature_refused" : "bad_answer",
          message: answer.why,
          status: answer.httpStatus,
        };
      return {
        ok: false,
        problem: answer.cause === "timeout" ? "timeout" : answer.cause === "connection" ? "unreachable" : "bad_answer",
        message: answer.why,
        status: answer.httpStatus,
      };
    }
    return { ok: true, status: 200, latencyMs };
  } catch (error) {
    if (error instanceof ActionEndpointUnavailable)
      return { ok: false, problem: error.problem, message: error.message, status: null };
    throw error;
  }
}
