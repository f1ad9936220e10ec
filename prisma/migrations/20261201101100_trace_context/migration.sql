-- OpenTelemetry trace context (docs/observability.md): the W3C traceparent of the span that prepared a
-- proposal (a reviewer's approve_proposal span continues that trace) and of the span that wrote an audit
-- event (the sequencer's integrate_audit_batch span links to it). Ids only; nullable (tracing may be off,
-- older rows have none). Existing table grants of the runtime role cover the new columns.
ALTER TABLE "Proposal" ADD COLUMN "traceparent" TEXT;
ALTER TABLE "AuditPending" ADD COLUMN "traceparent" TEXT;
