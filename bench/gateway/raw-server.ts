// The baseline of bench:gateway: prepare_refund hand-written on node:http + pg, no framework (no Next, no
// Prisma, no zod, no pino). It does the SAME work as the product's path, statement for statement, so the
// ratio measures what the product's code costs on top of the database work both must do:
//   1. the agent key (joined with channel and tenant; lastUsedAt touched at most once a minute)  — same SQL
//   2. the end-user token: HS256 JWT with aud, iat, exp, max age (jose, as the product)
//   3. every budget in one statement: key window → trace counters → end-user window         — same SQL
//   4. BEGIN; the order row locked (SELECT … FOR UPDATE)                                        — same SQL
//   5. one read under the lock: open proposal, last rejection (cool-down), latest proposal
//      (supersede), refunds and open proposals (what is left), the first payment, tenant policy — same SQL
//   6. the proposal row (hash v2 over the stored row, the product's hash function); a reviewer webhook
//      delivery when the tenant has one (the demo tenant has none, as in the product's run)
//   7. the audit event with its sequencer queue row (one statement, RFC 9162 leaf hash, the end user as a
//      keyed fingerprint, the arguments in clear as the product's redaction keeps order_id and reason); COMMIT
// It answers the same approval_required JSON. What it leaves out is the product's own code: zod validation
// of the envelope, the redaction walk, structured logging, the Request/Response objects.
import { createHash, createHmac, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type pg from "pg";
import canonicalize from "canonicalize";
import { jwtVerify } from "jose";
import { computeProposalHash, hashInputOf, itemsOf } from "../../lib/domain/proposal-hash";
import { auditLeafHash } from "../../lib/domain/audit-log";
import { proposalExpiresAt, requiredApprovalsFor } from "../../lib/domain/proposal-policy";

const PENDING = "pending_approval";

export function rawPrepareRefundServer(pool: pg.Pool) {
  const sha = (s: string) => createHash("sha256").update(s).digest("hex");
  const fingerprint = (s: string) =>
    "fp:" + createHmac("sha256", "bench-fingerprint-key").update(s).digest("hex").slice(0, 16);
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const traceId = randomUUID().replace(/-/g, "");
    const body = await readAll(req);
    const call = JSON.parse(body) as { id?: string; name: string; input: { order_id: string; reason: string } };
    const send = (code: string, payload: Record<string, unknown>) => {
      res.writeHead(200, {
        "content-type": "application/json; charset=utf-8",
        "cache-control": "no-store",
        "x-trace-id": traceId,
      });
      res.end(
        JSON.stringify({
          type: "tool_result",
          tool_use_id: call.id ?? "unknown",
          is_error: code !== "approval_required",
          content: JSON.stringify({ code, ...payload, traceId }),
        }),
      );
    };
    const bearer = String(req.headers.authorization ?? "").replace(/^Bearer\s+/i, "");
    const keyHash = sha(bearer);
    // 1. the key
    const { rows: keys } = await pool.query(
      `WITH touched AS (
         UPDATE "AgentKey" SET "lastUsedAt" = (now() AT TIME ZONE 'UTC')
          WHERE "keyHash" = $1 AND "revokedAt" IS NULL
            AND ("lastUsedAt" IS NULL OR "lastUsedAt" < (now() AT TIME ZONE 'UTC') - interval '1 minute')
       )
       SELECT k."id", k."tenantId", k."channelId", k."allowedTools", k."revokedAt",
              (k."expiresAt" IS NOT NULL AND k."expiresAt" <= (now() AT TIME ZONE 'UTC')) AS "expired",
              c."slug" AS "channelSlug", c."endUserTokenSecret", c."allowedTools" AS "channelTools",
              c."previousEndUserTokenSecret", c."previousSecretValidUntil",
              t."slug" AS "tenantSlug", t."active", t."approvalExpiryMinutes", t."dualApprovalThresholdMinor", t."endUserTokenMaxAgeSeconds"
         FROM "AgentKey" k
         JOIN "Channel" c ON c."id" = k."channelId" AND c."tenantId" = k."tenantId"
         JOIN "Tenant" t ON t."id" = k."tenantId"
        WHERE k."keyHash" = $1`,
      [keyHash],
    );
    const key = keys[0];
    if (!key || key.revokedAt || key.expired || !key.active)
      return send("unauthenticated", { error: { message: "bad key" } });
    // 2. the end user
    const { payload } = await jwtVerify(
      String(req.headers["x-end-user-token"]),
      new TextEncoder().encode(key.endUserTokenSecret),
      {
        algorithms: ["HS256"],
        requiredClaims: ["exp", "sub", "iat", "aud"],
        audience: `${key.tenantSlug}/${key.channelSlug}`,
        maxTokenAge: key.endUserTokenMaxAgeSeconds,
        clockTolerance: 5,
      },
    );
    if (payload.tenant !== key.tenantSlug) return send("permission_denied", { error: { message: "wrong tenant" } });
    const customer = String(payload.sub);
    // 3. the budgets
    const repeat = "repeat:" + sha(call.name + "\u0000" + canonicalize(call.input)).slice(0, 32);
    const {
      rows: [b],
    } = await pool.query(BUDGETS_SQL, [key.tenantId, `key:${key.id}`, traceId, repeat, customer, `user:${customer}`]);
    if (
      b.keyCount > b.keyLimit ||
      b.calls > b.maxCalls ||
      b.repeats > b.maxRepeats ||
      (b.userCount ?? 0) > b.userLimit
    ) {
      return send("limit_exceeded", { error: { message: "budget" } });
    }
    const client = await pool.connect();
    try {
      // 4. the lock
      await client.query("BEGIN");
      const { rows: orders } = await client.query(
        `SELECT "id", "number", "currency", "capturedMinor", "status"::text AS "status" FROM "Order"
          WHERE "tenantId" = $1::uuid AND "number" = $2 AND "customerId" = $3 FOR UPDATE`,
        [key.tenantId, call.input.order_id, customer],
      );
      const order = orders[0];
      let proposal: { id: string; hash: string; amountMinor: number; currency: string } | null = null;
      let audit: Record<string, unknown> = {};
      if (order) {
        // 5. everything under the lock
        const now = new Date();
        const {
          rows: [seen],
        } = await client.query(SEEN_SQL, [order.id, key.tenantId, now.toISOString()]);
        if (seen.id && seen.expiresAt > now) {
          proposal = seen;
          audit = { order: order.number, reused: true };
        } else if (
          seen.rejectedId &&
          seen.rejectedAt.getTime() + seen.factsRejectionCooldownMinutes * 60_000 > now.getTime()
        ) {
          throw new Error("bench orders are never rejected");
        } else {
          if (seen.id) throw new Error("bench orders never hold an expired pending proposal");
          const supersedesId =
            seen.latestId && !seen.latestSuperseded && ["expired", "invalidated"].includes(seen.latestStatus)
              ? seen.latestId
              : null;
          const left = order.capturedMinor - Number(seen.factsRefundedMinor) - Number(seen.factsOpenMinor);
          if (left <= 0 || !seen.payId) throw new Error("bench orders always have money left and a payment");
          // 6. the proposal
          const row = {
            id: randomUUID(),
            tenantId: key.tenantId as string,
            tool: "prepare_refund",
            orderId: order.id as string,
            amountMinor: left,
            currency: order.currency as string,
            recipientKind: seen.payMethod as string,
            recipientRef: seen.payProviderPaymentRef as string,
            recipientHolder: seen.payHolderName as string,
            recipientDisplay: seen.payDisplay as string,
            hashVersion: 4,
            // The refund's kind and subject (the INSERT below leaves them to the column default and the migration's
            // subject trigger, as the release before kinds does).
            kind: "refund",
            subject: null,
            params: null,
            source: null,
            customerId: customer,
            orderNumber: seen.factsOrderNumber as string,
            customerName: seen.factsCustomerName as string,
            orderItems: itemsOf(seen.factsOrderItems),
            reason: call.input.reason,
            expiresAt: proposalExpiresAt(now, seen.factsApprovalExpiryMinutes),
            requiredApprovals: requiredApprovalsFor(left, seen.factsDualApprovalThresholdMinor),
            policyVersion: seen.factsPolicyVersion as number,
            // The product binds the provider snapshot (v3+); the bench reads the ledger only: its sums stand in.
            sourceProvider: "manual",
            sourceCapturedMinor: order.capturedMinor as number,
            sourceRefundedMinor: Number(seen.factsRefundedMinor),
          };
          const hash = computeProposalHash(hashInputOf(row));
          const { rows: created } = await client.query(
            `INSERT INTO "Proposal" ("id", "tenantId", "orderId", "customerId", "paymentId", "requestedByAgentKeyId", "channelId", "endUserId", "amountMinor", "currency",
               "recipientKind", "recipientRef", "recipientHolder", "recipientDisplay", "reason", "hash", "expiresAt", "requiredApprovals", "policyVersion",
               "supersedesId", "traceId", "sourceProvider", "sourceCapturedMinor", "sourceRefundedMinor", "hashVersion", "orderNumber",
               "customerName", "orderItems", "updatedAt")
             VALUES ($1, $2, $3, $4, $5, $6, $7, $4, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
                     $21, $22, $23, $24, $25, $26, $27::jsonb, now()) RETURNING *`,
            [
              row.id,
              row.tenantId,
              row.orderId,
              customer,
              seen.payId,
              key.id,
              key.channelId,
              row.amountMinor,
              row.currency,
              row.recipientKind,
              row.recipientRef,
              row.recipientHolder,
              seen.payDisplay,
              row.reason,
              hash,
              row.expiresAt,
              row.requiredApprovals,
              row.policyVersion,
              supersedesId,
              traceId,
              row.sourceProvider,
              row.sourceCapturedMinor,
              row.sourceRefundedMinor,
              row.hashVersion,
              row.orderNumber,
              row.customerName,
              JSON.stringify(row.orderItems),
            ],
          );
          proposal = created[0];
          if (seen.factsReviewWebhookUrl) throw new Error("the bench tenant has no reviewer webhook");
          audit = {
            order: order.number,
            reused: false,
            amount: { minor: row.amountMinor, currency: row.currency },
            supersedes: supersedesId,
          };
        }
      }
      // 7. the audit event (event + sequencer queue row, one statement, no lock)
      const occurredAt = new Date();
      const outcome = proposal ? "approval_required" : "not_found";
      const endUser = fingerprint(customer);
      const content = {
        id: randomUUID(),
        tenantId: key.tenantId as string,
        occurredAt,
        traceId,
        actorType: "agent",
        actorId: key.id as string,
        authMethod: "agent_key",
        action: "tool:prepare_refund",
        outcome,
        proposalId: proposal?.id ?? null,
        proposalHash: proposal?.hash ?? null,
        model: null,
        promptVersion: null,
        channel: key.channelSlug as string,
        endUser,
        data: { transport: "anthropic", call_id: call.id ?? "unknown", arguments: call.input, ...audit },
        fingerprints: [endUser],
      };
      const leaf = auditLeafHash(content);
      const at = occurredAt.toISOString();
      // A named (prepared) statement, as the product's recordAuditEvent runs it (lib/server/db/pg.ts `prepared`).
      await client.query({
        name: "raw_audit_event",
        text: `WITH e AS (
           INSERT INTO "AuditEvent" ("id", "tenantId", "occurredAt", "traceId", "actorType", "actorId", "authMethod", "action", "outcome",
                                     "proposalId", "proposalHash", "model", "promptVersion", "channel", "endUser", "data", "fingerprints", "hash")
           VALUES ($1::uuid, $2::uuid, ($3::timestamptz AT TIME ZONE 'UTC'), $4, 'agent'::"AuditActorType", $5, 'agent_key', 'tool:prepare_refund', $6,
                   $7::uuid, $8, NULL, NULL, $9, $10, $11::jsonb, $12::text[], $13)
           RETURNING "pos"
         )
         INSERT INTO "AuditPending" ("eventId", "logId", "pos", "leafHash", "occurredAt")
         SELECT $1::uuid, $2::uuid, e."pos", $13, ($3::timestamptz AT TIME ZONE 'UTC') FROM e`,
        values: [
          content.id,
          content.tenantId,
          at,
          traceId,
          content.actorId,
          outcome,
          content.proposalId,
          content.proposalHash,
          content.channel,
          endUser,
          JSON.stringify(content.data),
          content.fingerprints,
          leaf,
        ],
      });
      await client.query("COMMIT");
      if (!proposal) return send("not_found", { error: { message: "no such order" } });
      return send("approval_required", {
        result: {
          proposal_id: proposal.id,
          status: PENDING,
          hash: proposal.hash,
          amount: { minor: proposal.amountMinor, currency: proposal.currency },
        },
      });
    } catch (e) {
      await client.query("ROLLBACK").catch(() => undefined);
      return send("internal_error", { error: { message: String((e as Error).message) } });
    } finally {
      client.release();
    }
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(
        '{"type":"tool_result","tool_use_id":"unknown","is_error":true,"content":"{\\"code\\":\\"internal_error\\"}"}',
      );
    });
  };
}

async function readAll(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

// lib/server/agent/budgets.ts chargeBudgets, with the defaults (60 s, 600, 60, 50, 5, 10) inlined.
const BUDGETS_SQL = `
  WITH p AS (
    SELECT coalesce(max(b."windowSeconds"), 60) AS w, coalesce(max(b."maxCallsPerKeyPerWindow"), 600) AS key_lim,
           coalesce(max(b."maxCallsPerEndUserPerWindow"), 60) AS user_lim, coalesce(max(b."maxCallsPerTrace"), 50) AS max_calls,
           coalesce(max(b."maxRepeatsPerTrace"), 5) AS max_repeats, coalesce(max(b."maxErrorsPerTrace"), 10) AS max_errors
      FROM "AgentBudgetPolicy" b WHERE b."tenantId" = $1::uuid
  ), win AS (
    SELECT to_timestamp(floor(extract(epoch FROM now()) / p.w) * p.w) AT TIME ZONE 'UTC' AS start, p.* FROM p
  ), k AS (
    INSERT INTO "AgentWindowCounter" ("tenantId", "subject", "windowStart", "count")
    SELECT $1::uuid, $2, win.start, 1 FROM win
    ON CONFLICT ("tenantId", "subject", "windowStart") DO UPDATE SET "count" = "AgentWindowCounter"."count" + 1
    RETURNING "count", "windowStart"
  ), tr AS (
    INSERT INTO "AgentTraceCounter" ("tenantId", "traceId", "counter", "count")
    SELECT $1::uuid, $3, x.c, 1 FROM k, win, (VALUES ('calls'), ($4)) AS x(c) WHERE k."count" <= win.key_lim
    ON CONFLICT ("tenantId", "traceId", "counter")
    DO UPDATE SET "count" = "AgentTraceCounter"."count" + 1, "updatedAt" = (now() AT TIME ZONE 'UTC')
    RETURNING "counter", "count"
  ), t AS (
    SELECT (SELECT "count" FROM tr WHERE "counter" = 'calls') AS calls, (SELECT "count" FROM tr WHERE "counter" = $4) AS repeats,
           (SELECT "count" FROM "AgentTraceCounter" WHERE "tenantId" = $1::uuid AND "traceId" = $3 AND "counter" = 'errors') AS errors,
           (SELECT "count" FROM "AgentTraceCounter" WHERE "tenantId" = $1::uuid AND "traceId" = $3 AND "counter" = 'spent') AS spent
  ), u AS (
    INSERT INTO "AgentWindowCounter" ("tenantId", "subject", "windowStart", "count")
    SELECT $1::uuid, $6, win.start, 1 FROM win, t
     WHERE $5::text IS NOT NULL AND t.calls IS NOT NULL AND coalesce(t.spent, 0) <= 0
       AND t.calls <= win.max_calls AND t.repeats <= win.max_repeats AND coalesce(t.errors, 0) < win.max_errors
    ON CONFLICT ("tenantId", "subject", "windowStart") DO UPDATE SET "count" = "AgentWindowCounter"."count" + 1
    RETURNING "count", "windowStart"
  )
  SELECT k."count"::int AS "keyCount", win.key_lim::int AS "keyLimit", win.w::int AS "windowSeconds",
         greatest(1, ceil(extract(epoch FROM k."windowStart") + win.w - extract(epoch FROM now())))::int AS "keyRetryAfter",
         t.calls::int AS calls, t.repeats::int AS repeats, t.errors::int AS errors, t.spent::int AS spent,
         win.max_calls::int AS "maxCalls", win.max_repeats::int AS "maxRepeats", win.max_errors::int AS "maxErrors",
         u."count"::int AS "userCount", win.user_lim::int AS "userLimit",
         greatest(1, ceil(extract(epoch FROM u."windowStart") + win.w - extract(epoch FROM now())))::int AS "userRetryAfter"
    FROM k CROSS JOIN win CROSS JOIN t LEFT JOIN u ON true`;

// lib/actions/refund/prepare-refund.ts + lib/server/proposals/build-proposal.ts proposalFactsJoins.
const SEEN_SQL = `
  SELECT pe.*, rj.*, sp.*, facts.*, pay.*
    FROM (SELECT 1) one
    LEFT JOIN LATERAL (
      SELECT p."id", p."hash", p."amountMinor", p."currency", p."recipientKind", p."recipientDisplay", p."recipientHolder",
             p."reason", p."expiresAt", p."requiredApprovals"
        FROM "Proposal" p WHERE p."orderId" = $1::uuid AND p."status" = 'pending_approval'::"ProposalStatus" LIMIT 1
    ) pe ON true
    LEFT JOIN LATERAL (
      SELECT p."id" AS "rejectedId", p."hash" AS "rejectedHash", p."rejectionReason", p."decidedAt" AS "rejectedAt"
        FROM "Proposal" p WHERE p."orderId" = $1::uuid AND p."status" = 'rejected'::"ProposalStatus"
       ORDER BY p."decidedAt" DESC, p."id" DESC LIMIT 1
    ) rj ON true
    LEFT JOIN LATERAL (
      SELECT p."id" AS "latestId", p."status"::text AS "latestStatus",
             EXISTS (SELECT 1 FROM "Proposal" s WHERE s."supersedesId" = p."id") AS "latestSuperseded"
        FROM "Proposal" p WHERE p."orderId" = $1::uuid
       ORDER BY p."createdAt" DESC, p."id" DESC LIMIT 1
    ) sp ON true
    CROSS JOIN LATERAL (
      SELECT (SELECT coalesce(sum(r."amountMinor"), 0) FROM "Refund" r
                WHERE r."orderId" = $1::uuid AND r."status" = ANY('{succeeded,pending}'::"RefundStatus"[]))::bigint AS "factsRefundedMinor",
             (SELECT coalesce(sum(p."amountMinor"), 0) FROM "Proposal" p
                WHERE p."orderId" = $1::uuid
                  AND (p."status" = ANY('{approved,executing,needs_reconciliation}'::"ProposalStatus"[])
                       OR (p."status" = 'pending_approval'::"ProposalStatus" AND p."expiresAt" > ($3::timestamptz AT TIME ZONE 'UTC'))))::bigint AS "factsOpenMinor",
             t."approvalExpiryMinutes" AS "factsApprovalExpiryMinutes", t."dualApprovalThresholdMinor" AS "factsDualApprovalThresholdMinor",
             t."policyVersion" AS "factsPolicyVersion", t."rejectionCooldownMinutes" AS "factsRejectionCooldownMinutes",
             t."reviewWebhookUrl" AS "factsReviewWebhookUrl", t."slackWebhookUrl" AS "factsSlackWebhookUrl",
             o."number" AS "factsOrderNumber", c."name" AS "factsCustomerName", o."items" AS "factsOrderItems"
        FROM "Tenant" t
        LEFT JOIN "Order" o ON o."id" = $1::uuid AND o."tenantId" = t."id"
        LEFT JOIN "Customer" c ON c."id" = o."customerId" AND c."tenantId" = t."id"
       WHERE t."id" = $2::uuid
    ) facts
    LEFT JOIN LATERAL (
      SELECT y."id" AS "payId", y."method"::text AS "payMethod", y."providerPaymentRef" AS "payProviderPaymentRef",
             y."holderName" AS "payHolderName", y."display" AS "payDisplay"
        FROM "Payment" y WHERE y."orderId" = $1::uuid AND y."tenantId" = $2::uuid ORDER BY y."createdAt" ASC LIMIT 1
    ) pay ON true`;
