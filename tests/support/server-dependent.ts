// Which integration test files depend on the PostgreSQL server itself, and so run again on Debian's PostgreSQL in
// `npm test` (scripts/test.ts), and which are server-neutral (run once, on the embedded server; every file on both
// servers with `npm test -- --all-postgres`). Server-dependent: migrations and drift, roles and least privilege,
// partitions and retention, advisory locks and concurrency, LISTEN/NOTIFY, triggers, server limits and types.
// A file that only goes through the app's queries (which every supported server answers alike) is neutral.
// tests/support/server-dependent.test.ts fails when a file in tests/integration is in neither list, in both, or
// listed but gone: a new integration file must be placed (docs/testing.md).

/** File name in tests/integration → why its behaviour depends on the server. */
export const serverDependent: Record<string, string> = {
  "action-kinds-schema.test.ts":
    "constraints and triggers: CHECKs on the refund's columns and the subject, a partial unique index on jsonb expressions, the previous release's BEFORE INSERT trigger, the kind-named decision webhook trigger",
  "foundation.test.ts":
    "migrations: re-applying is a no-op, a changed migration is refused, concurrent applies serialize on an advisory lock",
  "schema-drift.test.ts":
    "migrations and drift: the schema engine replays every migration on the server and diffs it with schema.prisma",
  "health-ready.test.ts":
    "migrations: readiness reads the server's _prisma_migrations and names a migration not applied",
  "operator-tenant.test.ts":
    "migrations: tenant:create and a production start migrate an empty database of their own on the server",
  "least-privilege.test.ts":
    "roles and least privilege: the runtime role's grants, refused DDL, UPDATE/DELETE/TRUNCATE on the audit evidence",
  "audit-retention-evidence.test.ts":
    "partitions and retention: AuditEvent's monthly partitions, dropping empty ones, the append-only trigger",
  "audit-tamper.test.ts": "triggers: the append-only triggers and what an owner who bypasses them can still not hide",
  "audit-sequencer.test.ts": "advisory locks: one sequencer leader per log, failover when the leader's session dies",
  "proposal-guarantees.test.ts":
    "advisory locks and time zones: the daily cap under concurrent approvals, the tenant's day from the server's tz data, row locks",
  "auth-lockout-race.test.ts": "concurrency: guarded UPDATEs under READ COMMITTED decide 20 racing guesses",
  "close-pending.test.ts": "concurrency: two closes without a row lock, exactly one guarded UPDATE wins",
  "realtime.test.ts":
    "LISTEN/NOTIFY and triggers: status-change triggers, one LISTEN connection per instance, reconnect after pg_terminate_backend",
  "change-stream.test.ts": "LISTEN/NOTIFY and triggers: the dashboard's server-sent events fed by the NOTIFY triggers",
  "decision-wait.test.ts": "LISTEN/NOTIFY: wait_seconds is woken by the proposal's NOTIFY",
  "inbox.test.ts": "triggers and NOTIFY: what the database announces for the inbox, per tenant",
  "jobs-webhook.test.ts":
    "the job queue on the server: graphile-worker's transactional enqueue (rollback enqueues nothing) and its LISTEN-woken worker",
  "gateway-pg-transaction.test.ts":
    "server limits: statement_timeout, the whole-transaction timeout and rollback on node-postgres",
  "sql-layer.test.ts":
    "the server's types: int8, timestamps and uuid as the server returns them on the pool and in transactions",
  "transaction.test.ts": "transactions: visibility before COMMIT, rollback and savepoints on one server connection",
};

/** Files whose behaviour does not depend on the server (they run on the embedded PostgreSQL only). */
export const serverNeutral: string[] = [
  "action-endpoint.test.ts",
  "address-change.test.ts",
  "cancel-order.test.ts",
  "contact-change.test.ts",
  "admin-denied-access.test.ts",
  "admin-governance.test.ts",
  "admin-keys.test.ts",
  "admin-passkeys.test.ts",
  "admin-policy.test.ts",
  "admin-staff.test.ts",
  "admin-step-up-rule.test.ts",
  "admin-tenant-settings.test.ts",
  "admin-witnesses.test.ts",
  "agent-demo.test.ts",
  "api-methods.test.ts",
  "api-not-found.test.ts",
  "approvals.test.ts",
  "audit-c2sp.test.ts",
  "audit-refused-keys.test.ts",
  "audit-rotation.test.ts",
  "audit-search-chain-status.test.ts",
  "audit-search-evidence-summary.test.ts",
  "audit-search-local-time.test.ts",
  "audit-search-record.test.ts",
  "audit-search.test.ts",
  "audit-signed-history.test.ts",
  "audit-trace-export.test.ts",
  "audit-trace-lookup.test.ts",
  "audit-witness-ssrf.test.ts",
  "audit-witness.test.ts",
  "auth-paused-message.test.ts",
  "auth.test.ts",
  "body-limits.test.ts",
  "bulk-reject.test.ts",
  "claim-proposal.test.ts",
  "client-dto-contract.test.ts",
  "decided-proposals.test.ts",
  "decision-webhook.test.ts",
  "demo-credentials.test.ts",
  "demo-shop.test.ts",
  "examples.test.ts",
  "follow-up-guards.test.ts",
  "execution-crash.test.ts",
  "execution.test.ts",
  "executions-detail.test.ts",
  "executions-kinds.test.ts",
  "executions-ops.test.ts",
  "gateway-audit.test.ts",
  "gateway-budgets.test.ts",
  "gateway-chat.test.ts",
  "gateway-end-user-sub.test.ts",
  "gateway-end-user-tokens.test.ts",
  "gateway-floods.test.ts",
  "gateway-mcp.test.ts",
  "gateway-property.test.ts",
  "gateway-provider-webhook.test.ts",
  "gateway-refunds.test.ts",
  "gateway-tenant-scope.test.ts",
  "gateway-tools.test.ts",
  "gateway-transports.test.ts",
  "gateway-window-budgets.test.ts",
  "guard-action-status-scope.test.ts",
  "honest-messages.test.ts",
  "jobs-admin-webhook.test.ts",
  "jobs-expiry.test.ts",
  "key-rotation.test.ts",
  "kind-conformance.test.ts",
  "lock-order.test.ts",
  "manual-payout.test.ts",
  "mcp-trace-meta.test.ts",
  "new-tenant-governance.test.ts",
  "notification-deliveries.test.ts",
  "notifications-email.test.ts",
  "notifications-kinds.test.ts",
  "notifications-slack.test.ts",
  "observability-metrics.test.ts",
  "observability-traces.test.ts",
  "openapi-responses.test.ts",
  "orders-api.test.ts",
  "orders-batch.test.ts",
  "orders-import.test.ts",
  "passkeys.test.ts",
  "payment-ownership.test.ts",
  "pending-count.test.ts",
  "pg-serial-queries.test.ts",
  "proposal-comments.test.ts",
  "proposal-expiry-read.test.ts",
  "proposal-hash-v4.test.ts",
  "proposal-zero-approvals.test.ts",
  "provider-connection.test.ts",
  "provider-sandbox-accounts.test.ts",
  "provider-sandbox-payment-intents.test.ts",
  "provider-sandbox.test.ts",
  "provider-webhook-tenant.test.ts",
  "refundable-left.property.test.ts",
  "reject-internal-note.test.ts",
  "reject-redaction.test.ts",
  "replacement-order.test.ts",
  "review-demo-pending.test.ts",
  "seed-matrix.test.ts",
  "shop-sandbox.test.ts",
  "staff-route-origin.test.ts",
  "step-up-renewal.test.ts",
  "supersede-flow.test.ts",
  "supervise-restart.test.ts",
  "support-ticket-scrub.test.ts",
  "systems-of-record.test.ts",
];

/** The server-dependent files as paths from the repository root, for vitest's file filter. */
export function serverDependentFiles(): string[] {
  return Object.keys(serverDependent).map((f) => `tests/integration/${f}`);
}
