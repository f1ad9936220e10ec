import "server-only";
import { executionStates, type ExecutionStatus } from "@/lib/domain/execution-state";
import { proposalStatuses, type ProposalStatus } from "@/lib/domain/proposal-state";
import { refundStatus, type RefundStatus } from "@/lib/domain/refund-state";
import { sql, type RawBuilder } from "kysely";
import { Prisma } from "./generated/client";

/**
 * A status constant inlined in raw SQL as a literal ('pending_approval'), not a bind parameter, so the
 * planner sees the same text as before (partial indexes and the queue index keep matching). Only the
 * domain's own constants are accepted; anything else throws.
 */
export function statusSql(...statuses: readonly Status[]): Prisma.Sql {
  return Prisma.raw(literals(statuses));
}

/** The same, for the typed SQL layer (lib/server/db/sql.ts): `${statusLit(...)}` inside Kysely's `sql` tag. */
export function statusLit<S extends Status>(...statuses: readonly S[]): RawBuilder<S> {
  return sql.raw<S>(literals(statuses));
}

type Status = ProposalStatus | ExecutionStatus | RefundStatus;

function literals(statuses: readonly Status[]): string {
  if (statuses.length === 0) throw new Error("statusSql needs at least one status");
  for (const s of statuses) {
    if (![...proposalStatuses, ...executionStates, ...Object.values(refundStatus)].includes(s))
      throw new Error(`not a status: ${s}`);
  }
  return statuses.map((s) => `'${s}'`).join(", ");
}
