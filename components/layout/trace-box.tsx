/**
 * The dashboard's "Trace" box: paste a traceId, open its redacted timeline. A plain GET form (works without
 * JavaScript); /audit sends a bare traceId to the trace page, which checks `audit:trace` itself.
 */
export function TraceBox({ label, placeholder, submit }: { label: string; placeholder: string; submit: string }) {
  return (
    <form action="/audit" method="get" role="search" aria-label={label} className="trace-box">
      <label htmlFor="trace-box-input">{label}</label>
      <input id="trace-box-input" name="traceId" required maxLength={128} placeholder={placeholder} autoComplete="off" spellCheck={false} className="mono" />
      <button type="submit" className="secondary">
        {submit}
      </button>
    </form>
  );
}
