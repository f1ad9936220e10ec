import { withPgClient } from "../../lib/server/db/pg-client";
import { demoUuid } from "./demo-data";

/**
 * Load scripts (bench:gateway, the soak) drive thousands of calls a minute through one agent key and one
 * end user: lift that tenant's per-key and per-end-user window budgets so the traffic measures the gateway,
 * not its refusals. The budgets' upserts still run on every call, so their cost stays in the figures.
 * Never used by the product; only on the scripts' own throw-away databases.
 */
export async function liftWindowBudgets(url: string, tenantSlug: string) {
  await withPgClient(url, (c) =>
    c.query(
      `INSERT INTO "AgentBudgetPolicy" ("tenantId", "maxCallsPerKeyPerWindow", "maxCallsPerEndUserPerWindow", "updatedAt") VALUES ($1::uuid, 100000000, 100000000, now())
       ON CONFLICT ("tenantId") DO UPDATE SET "maxCallsPerKeyPerWindow" = 100000000, "maxCallsPerEndUserPerWindow" = 100000000`,
      [demoUuid(`tenant:${tenantSlug}`)],
    ),
  );
}
