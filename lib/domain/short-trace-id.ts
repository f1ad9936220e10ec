// A trace id shortened for a label, visibly: custom ids (X-Trace-Id, up to 128 characters) are often longer than
// the room a label has, and a cut without a mark reads as the whole id (someone searching for it finds nothing).
// Pure and free of Node built-ins, so client components can use it.

/** The id when it fits in `max` characters, else its first `max - 1` characters and "…" (never longer than `max`). */
export function shortTraceId(traceId: string, max = 16): string {
  const chars = Array.from(traceId);
  if (chars.length <= max) return traceId;
  return `${chars.slice(0, Math.max(1, max - 1)).join("")}…`;
}
