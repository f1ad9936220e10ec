// The OpenAPI 3.1 description of every HTTP route under app/api (served at GET /api/openapi.json), generated
// by zod-openapi from the zod schemas the routes and use cases parse with, and the DTOs the dashboard
// validates answers with. Where an answer has no schema of its own yet, the operation says so in its
// description and the body is a plain object; nothing here is a second copy of a rule.
// lib/schemas/openapi.test.ts checks the document with a standard OpenAPI 3.1 validator and against the route
// files on disk (every route and method described, nothing described that does not exist).
import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import { APP_VERSION } from "@/lib/config/version";
import {
  createChannelInput,
  decidePolicyInput,
  inviteStaffInput,
  issueAgentKeyInput,
  proposePolicyInput,
  removePasskeyInput,
  renamePasskeyInput,
  rotateChannelSecretInput,
  setDecisionWebhookInput,
  updateStaffInput,
  addWitnessInput,
  witnessPolicyInput,
  confirmationPolicyInput,
} from "@/lib/schemas/admin";
import { apiError, toolCallAnswer, toolCallRequest, toolListAnswer, traceableError } from "@/lib/schemas/api-wire";
import { auditSearchInput } from "@/lib/schemas/audit";
import { setBulkPolicyInput } from "@/lib/schemas/bulk-message-policy";
import { auditSearchPageDto } from "@/lib/schemas/audit-dto";
import { inboxDto } from "@/lib/schemas/inbox-dto";
import {
  checkNowResultDto,
  payoutResultDto,
  executionDetailDto,
  executionOverviewDto,
  executionsPageDto,
} from "@/lib/schemas/execution-dto";
import { listExecutionsInput, recordPayoutInput } from "@/lib/schemas/executions";
import {
  notificationChannels,
  notificationDeliveriesDto,
  notificationPreferencesDto,
  sendTestNotificationInput,
  updateNotificationPreferencesInput,
} from "@/lib/schemas/notifications";
import {
  issueIntegrationKeyInput,
  orderBatchDocumented,
  orderBatchOutput,
  orderBodyInput,
  orderNumber,
} from "@/lib/schemas/orders-api";
import { removeProviderConnectionInput, setProviderConnectionInput } from "@/lib/schemas/provider-connection";
import { removeActionEndpointInput, setActionEndpointInput } from "@/lib/schemas/action-endpoint";
import { clearTenantWebhookInput, setTenantWebhookInput } from "@/lib/schemas/tenant-webhooks";
import {
  authenticationOptionsDto,
  passkeyApprovalOptionsInput,
  registeredPasskeyDto,
  registrationOptionsDto,
  verifyPasskeyRegistrationInput,
} from "@/lib/schemas/passkeys";
import {
  approvalResultDto,
  claimResultDto,
  editResultDto,
  bulkRejectResultDto,
  pendingCountDto,
  proposalCommentDto,
  proposalDetailDto,
  kindProposalDetailDto,
  queuePageDto,
  rejectResultDto,
  releaseResultDto,
  reprepareResultDto,
} from "@/lib/schemas/proposal-dto";
import {
  addProposalCommentInput,
  approveProposalInput,
  bulkRejectProposalsInput,
  decidedFilterInput,
  editProposalAmountInput,
  queueFilterInput,
  rejectProposalInput,
} from "@/lib/schemas/proposals";
import { updateTenantSettingsInput } from "@/lib/schemas/tenant";
import { webhookDeliveriesDto } from "@/lib/schemas/webhook-delivery-dto";
import { toolFormats } from "@/lib/schemas/tools";
import { createSegmentInput } from "@/lib/schemas/segments";
import { actionDeclarationSpec } from "@/lib/schemas/action-declarations";

type Schema = z.core.$ZodType;
type Security = "agentKey" | "integrationKey" | "staffSession" | "metricsToken" | "providerSignature" | "public";

const securitySchemes = {
  agentKey: {
    type: "http",
    scheme: "bearer",
    description:
      'An agent key (`Authorization: Bearer <agent key>`): one agent of one tenant on one channel, issued in Admin → Agent keys. A missing or invalid key answers 401 with `WWW-Authenticate: Bearer realm="agent"` (on /api/mcp the challenge is `AgentKey`, so MCP clients do not start OAuth: there is no OAuth on this server).',
  },
  integrationKey: {
    type: "http",
    scheme: "bearer",
    description:
      "An integration key for the Orders API (`Authorization: Bearer <integration key>`) with the scope the route names (orders:write, orders:read).",
  },
  staffSession: {
    type: "apiKey",
    in: "cookie",
    name: "next-auth.session-token",
    description:
      "A signed-in staff member's session cookie (`__Secure-next-auth.session-token` over HTTPS). State-changing requests must come from the same origin (Origin header); each use case checks the person's roles.",
  },
  metricsToken: {
    type: "http",
    scheme: "bearer",
    description: "METRICS_TOKEN (docs/observability.md); without one set, only local addresses are served.",
  },
  providerSignature: {
    type: "apiKey",
    in: "header",
    name: "Stripe-Signature",
    description: "The payment provider's signature over the raw body (the provider's webhook secret).",
  },
} as const;

const errorStatus: Record<number, string> = {
  400: "invalid_arguments: the body or a parameter is not valid (problems say where).",
  401: "unauthenticated: no valid credential.",
  403: "permission_denied: the caller's role does not allow it, or a cross-site request.",
  404: "not_found: no such resource in the caller's tenant.",
  409: "expired, invalidated, rejected or claimed_by_other: the resource is not in a state that allows it.",
  405: "The method is not offered on this path.",
  413: "The body is larger than the route accepts.",
  429: "limit_exceeded: wait retry_after_seconds.",
  500: "internal_error: something went wrong on our side (a reference to quote, never details).",
  503: "temporarily_unavailable: a system we must ask did not answer.",
};

const json = (schema: Schema | Record<string, unknown>) => ({ "application/json": { schema } });
const text = (description: string) => ({ "text/plain": { schema: { type: "string" as const, description } } });
const anyObject = (description: string) => ({ type: "object" as const, description, additionalProperties: true });

type Op = {
  summary: string;
  description?: string;
  tag: string;
  security: Security;
  path?: Record<string, Schema>;
  query?: z.ZodObject | z.ZodPipe<z.ZodObject>;
  headers?: z.ZodObject;
  body?: Schema | Record<string, unknown>;
  /** The body may be left out (DELETE with an optional step-up). */
  bodyOptional?: boolean;
  /** Status → description and body. */
  ok: Record<number, { description: string; content?: Record<string, { schema: Schema | Record<string, unknown> }> }>;
  errors?: number[];
  errorSchema?: Schema | Record<string, unknown>;
};

function operation(op: Op): ZodOpenApiOperationObject {
  const errors = op.errors ?? [];
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(op.ok)) responses[status] = r;
  for (const status of errors)
    responses[String(status)] = {
      description: errorStatus[status] ?? "An error.",
      content: json(op.errorSchema ?? apiError),
    };
  return {
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    security: op.security === "public" ? [] : [{ [op.security]: [] }],
    requestParams: {
      ...(op.path ? { path: z.object(op.path) } : {}),
      ...(op.query ? { query: op.query } : {}),
      ...(op.headers ? { header: op.headers } : {}),
    },
    ...(op.body ? { requestBody: { required: !op.bodyOptional, content: json(op.body) } } : {}),
    responses: responses as ZodOpenApiOperationObject["responses"],
  };
}

const staff = (o: Omit<Op, "security" | "errors"> & { errors?: number[] }): Op => ({
  ...o,
  security: "staffSession",
  errors: o.errors ?? [400, 401, 403, 404, 413, 500],
});
const ok = (description: string, schema?: Schema | Record<string, unknown>, status = 200) => ({
  [status]: { description, ...(schema ? { content: json(schema) } : {}) },
});

const uuid = z.uuid();
const id = { id: uuid };
const untyped = (description: string) =>
  anyObject(`${description} (no response schema of its own yet: see the docs named in the description).`);

/** An Admin operation: staff session, tag "admin". */
const admin = (o: Omit<Parameters<typeof staff>[0], "tag">) => operation(staff({ ...o, tag: "admin" }));
/** A decision on a change that waits for a second admin: the same {stepUpPassword?} body, 409 once it is decided. */
const secondAdminDecision = (o: Pick<Op, "summary" | "path" | "ok">) =>
  admin({ ...o, body: decidePolicyInput, errors: [400, 401, 403, 404, 409, 413, 500] });
/** The 202 of an admin change that waits for a second admin (docs/admin-api.md). */
const awaitingSecondAdmin = ok("Awaiting a second admin.", untyped("The pending change"), 202);

/** The route merges the path's proposal id into the body, so the body is the input without it. */
const withoutProposalId = <S extends z.ZodRawShape>(shape: S) =>
  z.strictObject(shape).omit({ proposalId: true } as never);

const agentHeaders = z.object({
  traceparent: z
    .string()
    .optional()
    .describe(
      "W3C trace context; its trace-id becomes the conversation's trace (budgets and audit trail are per trace).",
    ),
  "x-trace-id": z
    .string()
    .optional()
    .describe("A trace id of your own (8–128 of A–Z a–z 0–9 . _ : -) when you send no traceparent."),
  "x-end-user-token": z
    .string()
    .optional()
    .describe("The channel integration's signed statement of who the customer is (never the model's)."),
  "x-agent-model": z.string().optional().describe("Recorded in the audit trail with every call."),
  "x-agent-prompt-version": z.string().optional().describe("Recorded in the audit trail with every call."),
});

const traceHeaders = z.object({
  traceparent: z.string().optional().describe("W3C trace context (its trace-id is echoed in X-Trace-Id)."),
  "x-trace-id": z.string().optional(),
});

const agentPaths: ZodOpenApiPathsObject = {
  "/api/agent/tools": {
    get: operation({
      tag: "agent",
      security: "agentKey",
      summary: "The tools this agent key may call, in a vendor's strict tool shape",
      description:
        "Descriptions say when to call each tool; schemas use only the keywords the vendor's strict mode accepts (limits it ignores are restated in the description; the server validates everything).",
      query: z.object({ format: z.enum(toolFormats as [string, ...string[]]).default("anthropic") }),
      headers: traceHeaders,
      ok: ok("The tool definitions.", toolListAnswer),
      errors: [400, 401, 429, 500],
      errorSchema: traceableError,
    }),
  },
  "/api/agent/tool-calls": {
    post: operation({
      tag: "agent",
      security: "agentKey",
      summary: "Run one tool call; the answer comes back in the caller's own shape",
      description:
        "Send the model's tool call as it is (an Anthropic tool_use block, an OpenAI Responses function_call item or an OpenAI Chat tool_calls[i] item) and hand the answer back to the model as it is. Every outcome, errors included, is HTTP 200 with the code inside content/output (docs/agent-api.md): approval_required carries review_url and poll_after_seconds; get_refund_status takes wait_seconds (0–25) and answers as soon as the proposal changes.",
      headers: agentHeaders,
      body: toolCallRequest,
      ok: {
        ...ok(
          "The tool answer in the family of the request (header X-Trace-Id; traceresponse when traced).",
          toolCallAnswer,
        ),
        // A body that is not JSON, or too large, still answers in the caller's family, code invalid_arguments inside.
        ...ok("The body is not JSON: invalid_arguments, in the caller's family.", toolCallAnswer, 400),
        ...ok("The body is too large: invalid_arguments, in the caller's family.", toolCallAnswer, 413),
      },
      errors: [401, 429],
      errorSchema: traceableError,
    }),
  },
  "/api/mcp": {
    post: operation({
      tag: "agent",
      security: "agentKey",
      summary: "The same tools over MCP (Streamable HTTP, stateless, JSON responses)",
      description:
        'JSON-RPC 2.0: initialize, tools/list, tools/call (results carry structuredContent with the same {code, …, traceId} envelope, isError on errors, and a resource_link to the review page when a human must decide). `params._meta.traceparent` is honoured. Configure the agent key as the Authorization header in the client (docs/agent-api.md "MCP"); there is no OAuth.',
      headers: agentHeaders,
      body: anyObject("A JSON-RPC 2.0 request or notification (or a batch)."),
      ok: {
        200: { description: "The JSON-RPC response.", content: json(anyObject("A JSON-RPC 2.0 response.")) },
        202: { description: "Accepted (a notification)." },
      },
      errors: [400, 401, 413, 429, 500],
      errorSchema: anyObject("A JSON-RPC error with data {code, traceId}."),
    }),
    get: operation({
      tag: "agent",
      security: "agentKey",
      summary: "Not offered: the server is stateless (no standalone SSE stream)",
      ok: {},
      errors: [401, 405],
      errorSchema: anyObject("A JSON-RPC error."),
    }),
    delete: operation({
      tag: "agent",
      security: "agentKey",
      summary: "Not offered: the server keeps no MCP sessions",
      ok: {},
      errors: [401, 405],
      errorSchema: anyObject("A JSON-RPC error."),
    }),
  },
};

const proposalPaths: ZodOpenApiPathsObject = {
  "/api/proposals": {
    get: operation(
      staff({
        tag: "proposals",
        summary: "The review queue (pending proposals), cursor-paged",
        query: queueFilterInput,
        ok: ok("A page of the queue.", queuePageDto),
      }),
    ),
  },
  "/api/proposals/decided": {
    get: operation(
      staff({
        tag: "proposals",
        summary: "Decided proposals, newest decision first",
        query: decidedFilterInput,
        ok: ok("{rows, total, page, pageSize}.", untyped("A page of decided proposals")),
      }),
    ),
  },
  "/api/proposals/pending-count": {
    get: operation(
      staff({
        tag: "proposals",
        summary: "How many proposals wait (capped count)",
        ok: ok("The count.", pendingCountDto),
      }),
    ),
  },
  "/api/proposals/{id}": {
    get: operation(
      staff({
        tag: "proposals",
        summary: "One proposal with everything a reviewer needs",
        path: id,
        // A refund's own detail, or another kind's (its review: before → after from the hashed params).
        ok: ok("The proposal.", z.union([proposalDetailDto, kindProposalDetailDto])),
      }),
    ),
  },
  "/api/proposals/{id}/approve": {
    post: operation(
      staff({
        tag: "proposals",
        summary: "Approve the exact proposal shown (hash-bound; step-up when required)",
        path: id,
        body: withoutProposalId(approveProposalInput.shape),
        ok: ok("Approved (or waiting for a second approval).", approvalResultDto),
        errors: [400, 401, 403, 404, 409, 413, 500],
      }),
    ),
  },
  "/api/proposals/{id}/approve/passkey-options": {
    post: operation(
      staff({
        tag: "proposals",
        summary: "WebAuthn options whose challenge is derived from the proposal hash",
        path: id,
        body: withoutProposalId(passkeyApprovalOptionsInput.shape),
        ok: ok("PublicKeyCredentialRequestOptionsJSON.", authenticationOptionsDto),
      }),
    ),
  },
  "/api/proposals/bulk-reject": {
    post: operation(
      staff({
        tag: "proposals",
        summary: "Reject several proposals with one customer message; each is its own decision over its own hash",
        description:
          "Each proposal goes through the single rejection (its own transaction and audit event). One that cannot be rejected (stale hash, expired, already decided, not found) is reported as refused with its code; the others are still rejected.",
        body: bulkRejectProposalsInput,
        ok: ok("One result per proposal, in the order sent.", bulkRejectResultDto),
        errors: [400, 401, 403, 413, 500],
      }),
    ),
  },
  "/api/proposals/{id}/comments": {
    post: operation(
      staff({
        tag: "proposals",
        summary: "Comment on a proposal (staff only; stored redacted, audited, shown in its history)",
        path: id,
        body: withoutProposalId(addProposalCommentInput.shape),
        ok: ok("The comment as stored.", proposalCommentDto),
        errors: [400, 401, 403, 404, 413, 500],
      }),
    ),
  },
  "/api/proposals/{id}/reject": {
    post: operation(
      staff({
        tag: "proposals",
        summary: "Reject with a message for the customer (and an internal note)",
        description: "One of customerMessage or reason (its former name) is required.",
        path: id,
        body: withoutProposalId(rejectProposalInput.in.shape),
        ok: ok("Rejected.", rejectResultDto),
        errors: [400, 401, 403, 404, 409, 413, 500],
      }),
    ),
  },
  "/api/proposals/{id}/edit": {
    post: operation(
      staff({
        tag: "proposals",
        summary: "Lower the amount: a new proposal supersedes this one",
        path: id,
        body: withoutProposalId(editProposalAmountInput.shape),
        ok: ok("The new proposal.", editResultDto),
        errors: [400, 401, 403, 404, 409, 413, 500],
      }),
    ),
  },
  "/api/proposals/{id}/reprepare": {
    post: operation(
      staff({
        tag: "proposals",
        summary: "Prepare the proposal again from current data (supersedes it)",
        path: id,
        ok: ok("The new proposal.", reprepareResultDto),
        errors: [401, 403, 404, 409, 500],
      }),
    ),
  },
  "/api/proposals/{id}/claim": {
    post: operation(
      staff({
        tag: "proposals",
        summary: 'Take or renew the advisory "I\'m reviewing this" claim',
        path: id,
        ok: ok("The claim.", claimResultDto),
        errors: [401, 403, 404, 409, 500],
      }),
    ),
    delete: operation(
      staff({
        tag: "proposals",
        summary: "Give the claim back (only the holder's)",
        path: id,
        ok: ok("Released or not.", releaseResultDto),
        errors: [401, 403, 404, 500],
      }),
    ),
  },
  "/api/stream/changes": {
    get: operation(
      staff({
        tag: "proposals",
        summary: "The dashboard's push channel (server-sent events)",
        description: 'docs/design.md "Live updates".',
        ok: {
          200: {
            description: "An event stream of proposal changes.",
            content: { "text/event-stream": { schema: { type: "string" } } },
          },
        },
        errors: [401, 403, 500],
      }),
    ),
  },
};

const executionPaths: ZodOpenApiPathsObject = {
  "/api/executions": {
    get: operation(
      staff({
        tag: "executions",
        summary:
          "Executions of every action kind (refunds and the kinds the shop carries out), cursor-paged and searchable",
        query: listExecutionsInput,
        ok: ok("A page.", executionsPageDto),
      }),
    ),
  },
  "/api/executions/overview": {
    get: operation(
      staff({
        tag: "executions",
        summary: "In-doubt counters, chart and oldest rows",
        ok: ok("The overview.", executionOverviewDto),
      }),
    ),
  },
  "/api/executions/{id}": {
    get: operation(
      staff({
        tag: "executions",
        summary: "One execution with its events",
        path: id,
        ok: ok("The execution.", executionDetailDto),
      }),
    ),
  },
  "/api/executions/{id}/check": {
    post: operation(
      staff({
        tag: "executions",
        summary: "Ask the provider about this execution now",
        path: id,
        ok: ok("Queued or settled.", checkNowResultDto),
      }),
    ),
  },
  "/api/executions/{id}/payout": {
    post: operation(
      staff({
        tag: "executions",
        summary: "Record a manual payout's transfer reference (ops)",
        path: id,
        body: recordPayoutInput.omit({ executionId: true }),
        ok: ok("Recorded: settled, or awaiting a second person's confirmation.", payoutResultDto),
      }),
    ),
  },
  "/api/executions/{id}/payout/confirm": {
    post: operation(
      staff({
        tag: "executions",
        summary: "Confirm a recorded manual payout (a second ops member)",
        path: id,
        ok: ok("Confirmed: the refund is paid.", payoutResultDto),
      }),
    ),
  },
};

/** A whole number in a query parameter (a tree size, a leaf index). */
const digits = z.string().regex(/^\d+$/);
/** A public read of one tenant log (C2SP tlog style, for witnesses and auditors): no session, `logId` in the path. */
const publicLogRead = (o: Pick<Op, "summary" | "query" | "ok">) =>
  operation({ ...o, tag: "audit", security: "public", path: { logId: z.string() }, errors: [400, 404, 500] });

const auditPaths: ZodOpenApiPathsObject = {
  "/api/audit/events": {
    get: operation(
      staff({
        tag: "audit",
        summary: "Search the audit trail",
        query: auditSearchInput,
        ok: ok("A page of events.", auditSearchPageDto),
      }),
    ),
  },
  "/api/audit/export": {
    get: operation(
      staff({
        tag: "audit",
        summary: "Download the whole search result (capped)",
        query: auditSearchInput.in.extend({ format: z.enum(["csv", "json"]).default("csv") }),
        ok: {
          200: {
            description: "A file (Content-Disposition: attachment).",
            content: { "text/csv": { schema: { type: "string" } }, "application/json": { schema: { type: "string" } } },
          },
        },
      }),
    ),
  },
  "/api/audit/traces/{traceId}/export": {
    get: operation(
      staff({
        tag: "audit",
        summary: "Download exactly what a trace's page shows (its events and its proposals' decisions and execution)",
        path: { traceId: z.string().max(128) },
        query: z.object({ format: z.enum(["csv", "json"]).default("csv") }),
        ok: {
          200: {
            description: "A file (Content-Disposition: attachment).",
            content: { "text/csv": { schema: { type: "string" } }, "application/json": { schema: { type: "string" } } },
          },
        },
      }),
    ),
  },
  "/api/audit/evidence/{proposalId}": {
    get: operation(
      staff({
        tag: "audit",
        summary: "A proposal's evidence pack (verify offline with npm run evidence:verify)",
        path: { proposalId: uuid },
        ok: ok("The evidence pack as a JSON download (docs/audit.md).", untyped("An evidence pack")),
      }),
    ),
  },
  "/api/audit/checkpoint": {
    get: operation(
      staff({
        tag: "audit",
        summary: "The tenant log's newest signed checkpoint, with a consistency proof from an earlier size",
        query: z.object({ consistencyFrom: digits.optional() }),
        ok: ok("{checkpoint, consistency} (docs/audit.md).", untyped("A signed checkpoint")),
      }),
    ),
  },
  "/api/audit/public-key": {
    get: operation({
      tag: "audit",
      security: "public",
      summary: "The Ed25519 public key that signs audit checkpoints",
      ok: ok('The key (docs/audit.md "Keys").', untyped("The current audit signing key")),
      errors: [503],
    }),
  },
  "/api/audit/public-keys": {
    get: operation({
      tag: "audit",
      security: "public",
      summary: "Every audit signing key with its validity and C2SP vkey",
      ok: ok("{keys:[…]}.", untyped("The audit signing keys")),
      errors: [500],
    }),
  },
  "/api/audit/logs/{logId}/checkpoint": {
    get: publicLogRead({
      summary: "A log's checkpoint as a C2SP signed note with witness cosignatures",
      query: z.object({ size: digits.optional() }),
      ok: { 200: { description: "The signed note.", content: text("A C2SP signed note.") } },
    }),
  },
  "/api/audit/logs/{logId}/consistency": {
    get: publicLogRead({
      summary: "RFC 9162 consistency proof between two sizes",
      query: z.object({ from: digits, to: digits }),
      ok: { 200: { description: "One base64 hash per line.", content: text("Base64 hashes, one per line.") } },
    }),
  },
  "/api/audit/logs/{logId}/inclusion": {
    get: publicLogRead({
      summary: "A leaf's hash and its inclusion proof in the tree of a size",
      query: z.object({ index: digits, size: digits }),
      ok: ok(
        "The proof.",
        z.object({ leafIndex: z.int(), treeSize: z.int(), leafHash: z.string(), proof: z.array(z.string()) }),
      ),
    }),
  },
};

/** The 202 of a webhook.test delivery queued to a webhook (decision or reviewer). */
const testDeliveryQueued = ok("{id} of the delivery.", z.object({ id: uuid }), 202);
/** The 202 of a delivery queued to be sent again (webhook or notification). */
const queuedAgain = ok("Queued.", z.object({ id: uuid, status: z.literal("pending") }), 202);
/** The 204 of a revoked key (agent or integration), also when it already was. */
const revoked = { 204: { description: "Revoked." } };

const adminPaths: ZodOpenApiPathsObject = {
  "/api/admin/staff": {
    get: admin({
      summary: "The tenant's staff (search on name or email)",
      query: z.object({ q: z.string().max(100).optional() }),
      ok: ok("{staff:[…]}.", untyped("The staff list")),
    }),
    post: admin({
      summary: "Invite a staff member",
      description:
        'With the admin role the invitation waits for a second admin: 202 {status: "awaiting_second_admin", change} (docs/admin-api.md).',
      body: inviteStaffInput,
      ok: {
        ...ok("{id, setupUrl, expiresAt}.", untyped("The invitation"), 201),
        ...awaitingSecondAdmin,
      },
    }),
  },
  "/api/admin/staff/{id}": {
    patch: admin({
      summary: "Change roles, disable, unlock or sign out a staff member",
      path: id,
      body: updateStaffInput,
      ok: {
        ...ok("{id, before, after}.", untyped("The change")),
        ...awaitingSecondAdmin,
      },
    }),
  },
  "/api/admin/staff/{id}/setup-link": {
    post: admin({
      summary: "Issue a new setup link (voids older ones)",
      path: id,
      // The same {stepUpPassword?} as every second-admin decision.
      body: decidePolicyInput,
      ok: {
        ...ok("{setupUrl, expiresAt}.", untyped("The link"), 201),
        ...awaitingSecondAdmin,
      },
    }),
  },
  "/api/admin/changes": {
    get: admin({
      summary: "Admin changes waiting for a second admin",
      ok: ok("{pending:[…], alone}.", untyped("The pending changes")),
    }),
  },
  "/api/admin/changes/{id}/{decision}": {
    post: secondAdminDecision({
      summary: "Approve, reject or cancel a pending admin change",
      path: { id: uuid, decision: z.enum(["approve", "reject", "cancel"]) },
      ok: ok("{id, status, setupUrl?, staffId?, expiresAt?}.", untyped("The decided change")),
    }),
  },
  "/api/admin/policy": {
    get: admin({
      summary: "The active policy, the pending change and the history",
      ok: ok("{version, values, pending, history}.", untyped("The policy")),
    }),
    post: admin({
      summary: "Propose a policy change (loosening waits for a second admin)",
      body: proposePolicyInput,
      ok: ok("{version, status, changes}.", untyped("The proposed version"), 201),
    }),
  },
  "/api/admin/policy/{version}/{decision}": {
    post: secondAdminDecision({
      summary: "A second admin approves or rejects a policy version",
      path: { version: z.string().regex(/^\d{1,9}$/), decision: z.enum(["approve", "reject"]) },
      ok: ok("{version, status}.", untyped("The decided version")),
    }),
  },
  "/api/admin/tenant": {
    get: admin({
      summary: "The tenant's settings",
      ok: ok("{slug, name, currency, locale, timeZone, currencyLocked}.", untyped("The settings")),
    }),
    patch: admin({
      summary: "Change the tenant's settings (audited)",
      body: updateTenantSettingsInput,
      ok: ok("The settings after the change.", untyped("The settings")),
    }),
  },
  "/api/admin/channels": {
    post: admin({
      summary: "Create a channel; its secret is shown only here",
      body: createChannelInput,
      ok: ok("{id, slug, secret}.", untyped("The channel"), 201),
    }),
  },
  "/api/admin/channels/{id}/rotate-secret": {
    post: admin({
      summary: "Rotate a channel's end-user-token secret with an overlap",
      path: id,
      body: rotateChannelSecretInput,
      ok: ok("{id, slug, secret, previousSecretValidUntil}.", untyped("The new secret"), 201),
    }),
  },
  "/api/admin/channels/{id}/decision-webhook": {
    put: admin({
      summary: "Set the channel's decision webhook (Standard Webhooks); the secret whsec_… is shown once",
      path: id,
      body: setDecisionWebhookInput,
      ok: ok("{channelId, url, secret (once), previousSecretValidUntil}.", untyped("The webhook")),
    }),
    delete: admin({
      summary: "Clear the channel's decision webhook",
      path: id,
      ok: ok("{channelId, url: null}.", untyped("The cleared webhook")),
    }),
  },
  "/api/admin/channels/{id}/decision-webhook/test": {
    post: admin({
      summary: "Queue a webhook.test delivery to the channel's decision webhook",
      path: id,
      ok: testDeliveryQueued,
    }),
  },
  // Admin → Notifications: the reviewer webhook and the Slack webhook (docs/notifications.md).
  "/api/admin/review-webhook": {
    put: admin({
      summary: "Set the reviewer webhook's URL; a new Standard Webhooks signing secret is answered this once",
      body: setTenantWebhookInput,
      ok: ok("{url, secret} (the secret is never shown again).", untyped("The webhook and its new secret")),
    }),
    delete: admin({
      summary: "Turn the reviewer webhook off (URL and secret removed)",
      body: clearTenantWebhookInput,
      ok: ok("{url: null, secret: null}.", untyped("The webhook, off")),
    }),
  },
  "/api/admin/slack-webhook": {
    put: admin({
      summary: "Set the Slack incoming-webhook URL (stored, never shown back: only its host)",
      body: setTenantWebhookInput,
      ok: ok("{host}.", untyped("The host the messages go to")),
    }),
    delete: admin({
      summary: "Turn Slack messages off",
      body: clearTenantWebhookInput,
      ok: ok("{host: null}.", untyped("Off")),
    }),
  },
  "/api/admin/review-webhook/test": {
    post: admin({
      summary: "Queue a webhook.test delivery to the reviewer webhook",
      ok: testDeliveryQueued,
    }),
  },
  "/api/admin/webhook-deliveries": {
    get: admin({
      summary: "Webhook delivery history (newest 100)",
      query: z.object({ target: z.enum(["review", "decision"]).optional(), channelId: uuid.optional() }),
      ok: ok("The deliveries, newest first.", webhookDeliveriesDto),
    }),
  },
  "/api/admin/webhook-deliveries/{id}/resend": {
    post: admin({
      summary: "Send a delivered or failed delivery again (same webhook id and body)",
      path: id,
      ok: queuedAgain,
    }),
  },
  "/api/admin/notification-deliveries": {
    get: admin({
      summary: "Slack message and e-mail delivery history (the notification outbox, newest 100)",
      query: z.object({ channel: z.enum(notificationChannels).optional() }),
      ok: ok("The deliveries, newest first.", notificationDeliveriesDto),
    }),
  },
  "/api/admin/notification-deliveries/{id}/resend": {
    post: admin({
      summary: "Attempt a failed Slack message or e-mail again (the same notification, built afresh)",
      path: id,
      ok: queuedAgain,
    }),
  },
  "/api/admin/notification-deliveries/test": {
    post: admin({
      summary: "Queue a test message to the Slack webhook, or a test e-mail to the signed-in admin",
      body: sendTestNotificationInput,
      ok: ok("{id} of the notification.", z.object({ id: uuid }), 202),
    }),
  },
  "/api/admin/agent-keys": {
    post: admin({
      summary: "Issue an agent key; the key is shown only here",
      body: issueAgentKeyInput,
      ok: ok("{id, key, …}.", untyped("The key"), 201),
    }),
  },
  "/api/admin/agent-keys/{id}": {
    delete: admin({
      summary: "Revoke an agent key (also when it already was)",
      path: id,
      ok: revoked,
    }),
  },
  "/api/admin/integration-keys": {
    get: admin({
      summary: "The Orders API integration keys",
      ok: ok(
        "{keys:[{id, label, keyPrefix, scopes, expiresAt, revokedAt, lastUsedAt, createdAt, status: active|revoked|expired}]}.",
        untyped("The keys"),
      ),
    }),
    post: admin({
      summary: "Issue an integration key; the key is shown only here",
      body: issueIntegrationKeyInput,
      ok: ok("{id, key, keyPrefix, scopes}.", untyped("The key"), 201),
    }),
  },
  "/api/admin/witnesses": {
    get: admin({
      summary: "The audit log's witnesses, the quorum, the log's origin and the policy file for auditors",
      ok: ok(
        "{witnesses:[{id, name, vkey, url, cosignedSize, cosignedAt, lastError}], quorum, origin, policy} (docs/audit.md).",
        untyped("The witnesses"),
      ),
    }),
    post: admin({
      summary: "Add a witness (a tightening: applies at once)",
      body: addWitnessInput,
      ok: ok("{id, name}.", untyped("The witness"), 201),
    }),
  },
  "/api/admin/witnesses/{id}": {
    delete: admin({
      summary: "Ask to remove a witness (a loosening: waits for a second admin)",
      path: id,
      ok: ok('{status: "awaiting_second_admin", change} (docs/admin-api.md).', untyped("The waiting change"), 202),
    }),
  },
  "/api/admin/witness-policy": {
    put: admin({
      summary: "Set the witness quorum: raising applies at once, lowering waits for a second admin",
      body: witnessPolicyInput,
      ok: {
        ...ok('{status: "applied", quorum}.', untyped("The applied quorum")),
        ...ok('{status: "awaiting_second_admin", change} (docs/admin-api.md).', untyped("The waiting change"), 202),
      },
    }),
  },
  // Who confirms (docs/action-kinds.md "Who confirms"): the kinds whose proposals also need the customer.
  "/api/admin/confirmation-policy": {
    get: admin({
      summary: "Who confirms: the kinds whose proposals also need the customer, and every kind's own floor",
      ok: ok("{kinds, available: [{kind, floor}]}.", untyped("Who confirms")),
    }),
    put: admin({
      summary:
        "Set the kinds whose proposals also need the customer: adding applies at once, dropping waits for a second admin",
      body: confirmationPolicyInput,
      ok: {
        ...ok('{status: "applied", kinds}.', untyped("The applied list")),
        ...ok('{status: "awaiting_second_admin", change} (docs/admin-api.md).', untyped("The waiting change"), 202),
      },
    }),
  },
  "/api/admin/integration-keys/{id}": {
    delete: admin({
      summary: "Revoke an integration key (also when it already was)",
      path: id,
      ok: revoked,
    }),
  },
  // The tenant's own payment provider connection (docs/systems-of-record.md "Per-tenant connection").
  "/api/admin/provider-connection": {
    get: admin({
      summary: "The tenant's payment provider connection: whose key is used (a hint only), the webhook URL and events",
      ok: ok(
        "{source: tenant|default, apiKeyHint, updatedAt, webhookUrl, events, canStore}.",
        untyped("The connection"),
      ),
    }),
    put: admin({
      summary: "Store the tenant's Stripe restricted key and webhook secret (sealed under SECRETS_KEY; step-up)",
      body: setProviderConnectionInput,
      ok: ok('{source: "tenant", apiKeyHint}.', untyped("The stored connection")),
    }),
    delete: admin({
      summary: "Remove the tenant's own connection (back to the process-wide default; step-up)",
      body: removeProviderConnectionInput,
      ok: ok("{removed}.", untyped("Whether a connection was removed")),
    }),
  },
  "/api/admin/provider-connection/test": {
    post: admin({
      summary: "Test the tenant's connection with one real call to the provider",
      ok: ok("{ok, source, problem?: refused|unreachable|unusable, message?}.", untyped("What the provider said")),
    }),
  },
  // The tenant's action endpoint: where the shop carries out approved actions (docs/action-endpoint.md).
  "/api/admin/action-endpoint": {
    get: admin({
      summary: "The tenant's action endpoint: its URL and the signing secret's hint (never the secret)",
      ok: ok("{configured, url, secretHint, updatedAt, canStore}.", untyped("The endpoint")),
    }),
    put: admin({
      summary:
        "Set the action endpoint's URL; a new Standard Webhooks signing secret (first save, or rotateSecret) is answered this once (step-up)",
      body: setActionEndpointInput,
      ok: ok("{url, secretHint, secret: whsec_… once, or null when kept}.", untyped("The stored endpoint")),
    }),
    delete: admin({
      summary: "Remove the tenant's action endpoint (URL and secret; step-up)",
      body: removeActionEndpointInput,
      ok: ok("{removed}.", untyped("Whether an endpoint was removed")),
    }),
  },
  "/api/admin/segments": {
    get: admin({
      summary: "The tenant's segments (named filters over its orders for bulk messages), each at its newest version",
      ok: ok("{data: [{id, slug, version, name, filter, createdAt}]}.", untyped("The segments")),
    }),
    post: admin({
      summary: "Declare a segment, or the next version of an existing slug (a new row; step-up)",
      body: createSegmentInput,
      ok: ok("{id, slug, version, name, filter, createdAt}.", untyped("The new version")),
    }),
  },
  "/api/admin/segments/policy": {
    get: admin({
      summary: "The tenant's bulk-message policy in force (recipients threshold, daily cap, tolerance, send window)",
      ok: ok(
        "{recipientsThreshold, dailyRecipientsCap, tolerancePercent, windowStartHour, windowEndHour, timeZone, ownTimeZone, updatedAt}.",
        untyped("The policy"),
      ),
    }),
    put: admin({
      summary:
        "Change the bulk-message policy (the values to change; step-up): tightening applies at once, loosening waits for a second admin",
      body: setBulkPolicyInput,
      ok: {
        ...ok('{status: "applied", …the policy in force}.', untyped("The policy")),
        ...ok('{status: "awaiting_second_admin", change} (docs/admin-api.md).', untyped("The waiting change"), 202),
      },
    }),
  },
  "/api/admin/actions": {
    get: admin({
      summary: "The tenant's declared actions: each name's newest decided version and its pending one",
      ok: ok(
        "{data: [{id, name, version, status, spec, proposedBy, proposedAt, decidedBy, decidedAt, mine, approvalRefusal}]}.",
        untyped("The declarations"),
      ),
    }),
    post: admin({
      summary: "Declare an action, or the next version of a name (pending until a second admin approves; step-up)",
      body: actionDeclarationSpec,
      ok: ok(
        "201 {declaration} (pending). 400 validation_failed; 409 conflict (a version already pending).",
        untyped("The new version"),
      ),
    }),
  },
  "/api/admin/actions/{id}/{decision}": {
    post: secondAdminDecision({
      summary:
        "Approve (a second admin, step-up), reject, cancel (the proposer) or retire (one admin, step-up) a declared action",
      path: { id: uuid, decision: z.enum(["approve", "reject", "cancel", "retire"]) },
      ok: ok("{status: active | rejected | retired}.", untyped("The new status")),
    }),
  },
  "/api/admin/action-endpoint/test": {
    post: admin({
      summary: "Test the action endpoint: a signed GET of a random key, which must answer 404 (no effect at the shop)",
      ok: ok(
        "{ok: true, status, latencyMs} or {ok: false, problem: not_configured|unusable|url_refused|unreachable|timeout|signature_refused|bad_answer, message, status}.",
        untyped("What the endpoint answered"),
      ),
    }),
  },
};

const accountPaths: ZodOpenApiPathsObject = {
  "/api/inbox": {
    get: operation(
      staff({
        tag: "account",
        summary: "What waits for you: second approvals, changes for a second admin, in-doubt refunds (by your roles)",
        ok: ok("Your inbox; `count` is what the shell's badge shows.", inboxDto),
      }),
    ),
  },
  "/api/account/notifications": {
    get: operation(
      staff({
        tag: "account",
        summary: "Your own notification preferences",
        ok: ok("The preferences.", notificationPreferencesDto),
      }),
    ),
    put: operation(
      staff({
        tag: "account",
        summary: "Change your own notification preferences",
        body: updateNotificationPreferencesInput,
        ok: ok("The preferences.", notificationPreferencesDto),
      }),
    ),
  },
  "/api/passkeys/registration/options": {
    post: operation(
      staff({
        tag: "account",
        summary: "WebAuthn registration options for a new passkey",
        ok: ok("PublicKeyCredentialCreationOptionsJSON.", registrationOptionsDto),
      }),
    ),
  },
  "/api/passkeys/registration/verify": {
    post: operation(
      staff({
        tag: "account",
        summary: "Register the new passkey",
        body: verifyPasskeyRegistrationInput,
        ok: ok("The passkey.", registeredPasskeyDto),
      }),
    ),
  },
  "/api/passkeys/{id}": {
    patch: operation(
      staff({
        tag: "account",
        summary: "Rename one of your own passkeys",
        path: { id: z.string() },
        body: renamePasskeyInput,
        ok: ok("{id, name}.", z.object({ id: z.string(), name: z.string() })),
      }),
    ),
    delete: operation(
      staff({
        tag: "account",
        summary: "Remove one of your own passkeys (step-up)",
        path: { id: z.string() },
        body: removePasskeyInput,
        bodyOptional: true,
        ok: { 204: { description: "Removed." } },
      }),
    ),
  },
  "/api/auth/{nextauth}": {
    get: operation({
      tag: "account",
      security: "public",
      summary: "next-auth (session, csrf, providers, signin, signout, callback/…)",
      description:
        "The sign-in machinery of next-auth 4 (its own routes under /api/auth/…); used by the dashboard, not an API for integrations.",
      path: { nextauth: z.string() },
      ok: ok("next-auth's answer.", anyObject("next-auth's JSON")),
    }),
    post: operation({
      tag: "account",
      security: "public",
      summary: "next-auth (signin/credentials, callback/…, signout)",
      path: { nextauth: z.string() },
      body: anyObject("Form fields next-auth expects (csrfToken, …)."),
      ok: ok("next-auth's answer.", anyObject("next-auth's JSON")),
      errors: [413],
    }),
  },
};

const healthCheck = z.object({
  status: z.string(),
  version: z.string(),
  checks: z.record(z.string(), z.unknown()),
  time: z.string(),
});

const platformPaths: ZodOpenApiPathsObject = {
  "/api/v1/orders/batch": {
    post: operation({
      tag: "orders",
      security: "integrationKey",
      summary:
        "Create or update up to 1,000 orders in one transaction (idempotent; scope orders:write; a number twice → 400)",
      body: orderBatchDocumented,
      ok: ok("One result per order, in the request's order: created, updated, unchanged or refused.", orderBatchOutput),
      errors: [400, 401, 403, 413, 500],
    }),
  },
  "/api/v1/orders/{number}": {
    put: operation({
      tag: "orders",
      security: "integrationKey",
      summary: "Create or update an order from the shop's system (idempotent; scope orders:write)",
      path: { number: orderNumber },
      body: orderBodyInput,
      ok: {
        ...ok("Updated (or unchanged).", z.object({ number: z.string(), refundable: z.int(), changed: z.boolean() })),
        ...ok("Created.", z.object({ number: z.string(), refundable: z.int(), changed: z.boolean() }), 201),
      },
      errors: [400, 401, 403, 404, 409, 500],
    }),
    get: operation({
      tag: "orders",
      security: "integrationKey",
      summary: "The stored order with what is left to refund (scope orders:read)",
      path: { number: orderNumber },
      ok: ok("The order in the PUT's shape plus refundable (docs/systems-of-record.md).", untyped("The order")),
      errors: [401, 403, 404, 500],
    }),
  },
  "/api/confirm/{token}": {
    post: operation({
      tag: "platform",
      security: "public",
      summary: "The customer confirms or declines a proposal on their one-time confirm link (the confirm page's form)",
      description:
        'Form-encoded `proposal_id`, `hash` (the one the page showed), `decision` (confirm | decline), `reason` (optional). The token in the path is the credential. Answers 303 to /confirm/result?outcome=… or ?refused=<code> (docs/agent-api.md, "Customer confirmation").',
      path: { token: z.string() },
      ok: { 303: { description: "To the result page (outcome or refusal code)." } },
      errors: [403],
    }),
  },
  "/api/payments/webhook": {
    post: operation({
      tag: "platform",
      security: "providerSignature",
      summary: "The payment provider's webhook (signed over the raw body)",
      body: anyObject("The provider's event."),
      ok: ok("{received: true, …}.", anyObject("The acknowledgement")),
      errors: [400, 413, 500],
      errorSchema: z.object({ received: z.literal(false), error: z.string() }),
    }),
  },
  "/api/payments/webhook/{tenantSlug}": {
    post: operation({
      tag: "platform",
      security: "providerSignature",
      summary:
        "One tenant's own provider webhook, verified with its own secret (refund.*, charge.refunded, charge.dispute.created)",
      path: { tenantSlug: z.string().min(1).max(100) },
      body: anyObject("The provider's event."),
      ok: ok("{received: true, …}.", anyObject("The acknowledgement")),
      errors: [400, 404, 413, 500, 503],
      errorSchema: z.object({ received: z.literal(false), error: z.string() }),
    }),
  },
  "/api/health": {
    get: operation({
      tag: "platform",
      security: "public",
      summary: "Health (200 unless the database is unreachable; degraded in the body)",
      ok: ok("Health.", healthCheck),
      errors: [503],
      errorSchema: healthCheck,
    }),
  },
  "/api/health/live": {
    get: operation({
      tag: "platform",
      security: "public",
      summary: "Liveness: the process serves HTTP",
      ok: ok("Alive.", healthCheck),
    }),
  },
  "/api/health/ready": {
    get: operation({
      tag: "platform",
      security: "public",
      summary: "Readiness: every check passes (503 names the failing ones)",
      ok: ok("Ready.", healthCheck),
      errors: [503],
      errorSchema: healthCheck,
    }),
  },
  "/api/metrics": {
    get: operation({
      tag: "platform",
      security: "metricsToken",
      summary: "Prometheus metrics (text exposition format)",
      ok: { 200: { description: "Metrics.", content: text("Prometheus text format.") } },
      errors: [401, 403],
      errorSchema: z.string(),
    }),
  },
  "/api/openapi.json": {
    get: operation({
      tag: "platform",
      security: "public",
      summary: "This document (OpenAPI 3.1)",
      ok: ok("The OpenAPI document.", anyObject("An OpenAPI 3.1 document.")),
    }),
  },
};

/** The document; built once per process (it depends only on code). */
export function buildOpenApiDocument() {
  return createDocument(
    {
      openapi: "3.1.0",
      info: {
        title: "Approval Gateway API",
        version: APP_VERSION,
        description:
          "Hash-bound approvals for AI-agent actions. Agents call /api/agent/* (or MCP at /api/mcp) with an agent key; staff routes use the dashboard session; the Orders API (/api/v1) uses an integration key. Errors share one shape, {code, error:{message,…}} (plus traceId where a trace exists), and an unknown /api/… path answers a JSON 404 in that shape. See docs/agent-api.md, docs/staff-api.md, docs/admin-api.md.",
      },
      tags: ["agent", "proposals", "executions", "audit", "admin", "account", "orders", "platform"].map((name) => ({
        name,
      })),
      paths: {
        ...agentPaths,
        ...proposalPaths,
        ...executionPaths,
        ...auditPaths,
        ...adminPaths,
        ...accountPaths,
        ...platformPaths,
      },
      components: { securitySchemes },
    },
    {
      // The dashboard's DTOs narrow a status enum with z.custom for TypeScript (lib/schemas/proposal-dto.ts):
      // on the wire that is the enum in front of it.
      allowEmptySchema: { custom: true },
      override: ({ jsonSchema, zodSchema, io }) => {
        const def = zodSchema._zod.def as { type: string; in?: z.core.$ZodType; out?: z.core.$ZodType };
        if (
          def.type === "pipe" &&
          def.out?._zod.def.type === "custom" &&
          def.in &&
          Object.keys(jsonSchema).length === 0
        ) {
          Object.assign(jsonSchema, z.toJSONSchema(def.in, { io }));
          delete jsonSchema.$schema;
        }
      },
    },
  );
}
