import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";

/**
 * The dashboard's "Trace" box: paste a traceId, open its redacted timeline. A plain GET form (works without
 * JavaScript); /audit sends a bare traceId to the trace page, which checks `audit:trace` itself.
 */
export function TraceBox({
  label,
  placeholder,
  submit,
  idSuffix = "",
}: {
  label: string;
  placeholder: string;
  submit: string;
  idSuffix?: string;
}) {
  const id = `trace-box-input${idSuffix}`;
  return (
    <form action="/audit" method="get" role="search" aria-label={label} className="trace-box">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <div className="grid gap-2">
        <Input
          id={id}
          name="traceId"
          required
          maxLength={128}
          placeholder={placeholder}
          autoComplete="off"
          spellCheck={false}
          // text-sm from md up as the Input's own default had it (its md:text-sm outlived a plain text-xs).
          className="font-mono text-xs md:text-sm"
        />
        <Button type="submit" variant="outline">
          {submit}
        </Button>
      </div>
    </form>
  );
}
