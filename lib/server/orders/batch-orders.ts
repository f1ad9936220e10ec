import "server-only";
import { createHash } from "node:crypto";
import { AppError } from "@/lib/domain/outcome";
import { inputProblems, parseInput, type InputProblem } from "@/lib/domain/validation";
import { BODY_LIMITS } from "@/lib/config/body-limits";
import { orderBatchInput, orderImportLine, type OrderBatchOutput } from "@/lib/schemas/orders-api";
import { cappedBodyOrThrow } from "@/lib/server/http/body-too-large";
import { auditDigest, upsertOrderBatch, type BatchEntry } from "@/lib/server/orders/upsert-order-batch";
import type { OrderWriter } from "@/lib/server/orders/upsert-order";

/** A bulk request's time bound: its one transaction, every statement in it included. */
export const ORDERS_BATCH_TIMEOUT_MS = 30_000;

type Result = OrderBatchOutput["results"][number];

/**
 * `POST /api/v1/orders/batch` (docs/systems-of-record.md "Bulk orders"): the body read under its cap
 * (BODY_LIMITS.ordersBatch, 413 past it, nothing read further), the envelope checked (1–1,000 orders), each
 * order checked on its own with the PUT's schema; then the valid ones in one transaction through
 * upsertOrderBatch (the per-order rules). A number sent twice in one request refuses the whole request
 * (nothing written): which of the two bodies should stand is the shop's to say, and re-sending the same batch
 * must answer `unchanged` for every order, which applying both in turn would not.
 */
export async function batchOrders(writer: OrderWriter, request: Request, traceId: string): Promise<OrderBatchOutput> {
  const { text } = await cappedBodyOrThrow(request, BODY_LIMITS.ordersBatch);
  let raw: unknown;
  try {
    raw = JSON.parse(text) as unknown;
  } catch {
    throw new AppError("invalid_arguments", "The body is not JSON.", {
      problems: [{ path: "$", expected: "a JSON object", message: "not JSON" }],
    });
  }
  const { orders } = parseInput(orderBatchInput, raw, "The batch is not valid.");
  const results: Result[] = new Array<Result>(orders.length);
  const entries: (BatchEntry & { at: number })[] = [];
  orders.forEach((order, at) => {
    const parsed = orderImportLine.safeParse(order);
    if (parsed.success) {
      const { number, ...body } = parsed.data;
      entries.push({ at, number, body });
      return;
    }
    const number = (order as { number?: unknown } | null)?.number;
    // Paths are the order's own ($.customer.email), as the PUT answers them: each result is one order's.
    results[at] = {
      number: typeof number === "string" ? number : null,
      outcome: "refused",
      code: "invalid_arguments",
      message: "The order is not valid.",
      problems: inputProblems(parsed.error),
    };
  });
  const firstAt = new Map<string, number>();
  const twice: InputProblem[] = [];
  for (const e of entries) {
    if (firstAt.has(e.number))
      twice.push({
        path: `$.orders[${e.at}].number`,
        expected: "each order number once per batch",
        message: `also at $.orders[${firstAt.get(e.number)}]`,
      });
    else firstAt.set(e.number, e.at);
  }
  if (twice.length > 0)
    throw new AppError("invalid_arguments", "An order number is sent twice in the batch.", { problems: twice });
  if (entries.length > 0) {
    const report = await upsertOrderBatch(writer, entries, traceId, {
      timeoutMs: ORDERS_BATCH_TIMEOUT_MS,
      audit: {
        received: orders.length,
        bytes: text.length,
        digest: auditDigest(createHash("sha256").update(text).digest("hex")),
      },
    });
    report.results.forEach((r, k) => {
      const at = entries[k]!.at;
      results[at] =
        r.outcome === "refused"
          ? { number: r.number, outcome: "refused", code: r.code, message: r.message, problems: r.problems }
          : { number: r.number, outcome: r.outcome };
    });
  }
  return { results };
}
