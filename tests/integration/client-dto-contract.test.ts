// The reads the browser takes as their DTO types without a schema (lib/queries/api.ts `apiTyped`: the
// proposal page and the executions pages, re-read on every first load) are checked here instead: real answers
// of their use cases, from a real database, as JSON (what the route sends), parsed with the zod DTO each is
// declared to be. The compiler already holds the use cases to the DTO types; this catches what types cannot
// (a Date where the DTO says an ISO string, an enum value outside the list, a number that is not an integer).
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { getProposal } from "@/lib/server/proposals/get-proposal";
import { listExecutions } from "@/lib/server/executions/list-executions";
import { getExecutionOverview } from "@/lib/server/executions/get-execution-overview";
import { getExecutionDetail } from "@/lib/server/executions/get-execution-detail";
import { checkExecutionNow } from "@/lib/server/executions/check-execution-now";
import { proposalDetailDto } from "@/lib/schemas/proposal-dto";
import { executionDetailDto, executionOverviewDto, executionsPageDto } from "@/lib/schemas/execution-dto";
import { actorOf, approvedProposal, preparedProposal } from "./audit-support";
import { ES, ana } from "./gateway-support";

/** What the browser receives: the use case's answer through JSON, as the route handler sends it. */
const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

let pendingId = "";
let approvedId = "";
let executionId = "";

beforeAll(async () => {
  pendingId = (await preparedProposal(ana, 2_468)).proposal.id;
  const { proposal } = await approvedProposal(ana, 1_357);
  approvedId = proposal.id;
  // An execution in doubt: it shows in the list, the overview's in-doubt queue and chart, with its own events.
  const hourAgo = new Date(Date.now() - 3600_000);
  const execution = await db().execution.upsert({
    where: { proposalId: proposal.id },
    create: {
      tenantId: proposal.tenantId,
      proposalId: proposal.id,
      idempotencyKey: `refund-${proposal.id}`,
      attempts: 1,
      status: "unknown",
      lastError: "timeout: no answer",
      createdAt: hourAgo,
      lastAttemptAt: hourAgo,
    },
    update: { status: "unknown", lastError: "timeout: no answer", lastAttemptAt: hourAgo },
  });
  executionId = execution.id;
  await checkExecutionNow(await actorOf(ES, "ops"), { executionId });
});

describe("answers the browser reads as their types match their DTO schemas", () => {
  it("GET /api/proposals/:id — a pending proposal as its reviewer sees it, and an approved one", async () => {
    const reviewer = await actorOf(ES, "reviewer");
    for (const id of [pendingId, approvedId]) {
      const answer = wire(await getProposal(reviewer, id));
      expect(proposalDetailDto.parse(answer)).toEqual(answer);
    }
  });

  it("GET /api/executions, /api/executions/overview and /api/executions/:id", async () => {
    const ops = await actorOf(ES, "ops");
    const page = wire(await listExecutions(ops, { limit: 100 }));
    expect(executionsPageDto.parse(page)).toEqual(page);
    expect((page as { rows: { executionId?: string; id?: string }[] }).rows.length).toBeGreaterThan(0);
    const overview = wire(await getExecutionOverview(ops));
    expect(executionOverviewDto.parse(overview)).toEqual(overview);
    const detail = wire(await getExecutionDetail(ops, { executionId }));
    expect(executionDetailDto.parse(detail)).toEqual(detail);
    expect((detail as { events: unknown[] }).events.length).toBeGreaterThan(0);
  });
});
