// JSON lines for the processes the scripts run (docs/operations.md "Logs"): the supervisor (scripts/start.ts),
// the worker, and every line a child prints. pino's shape ({"level":30,"time":…,"service":…,"msg":…}), the same
// as the app's own lines (lib/server/log.ts), so one log pipeline reads them all.
import pino from "pino";

export type JsonLog = pino.Logger;

/**
 * A synchronous JSON logger for a script (sync: lines are not lost when the script exits right after): info and
 * below on stdout, warnings and errors on stderr. The level is the script's own (the supervisor always says what
 * it does; LOG_LEVEL is the app's).
 */
export function jsonLog(service: string, level: pino.Level = "info"): JsonLog {
  const streams = pino.multistream(
    [
      { level: "trace", stream: pino.destination({ dest: 1, sync: true }) },
      { level: "warn", stream: pino.destination({ dest: 2, sync: true }) },
    ],
    { dedupe: true },
  );
  return pino({ base: { service }, level }, streams);
}

/**
 * One line a child process printed, as JSON: a JSON object is passed through as it is (the app's and the
 * worker's pino lines); anything else (a framework banner, a Node warning, a stack line) becomes the `msg` of a
 * line naming its `source`, at level warn for stderr and info for stdout.
 */
export function asJsonLine(source: string, line: string, stream: "stdout" | "stderr"): string {
  const trimmed = line.trim();
  if (trimmed.startsWith("{") && trimmed.endsWith("}")) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return trimmed;
    } catch {
      // not JSON after all: wrapped below
    }
  }
  return JSON.stringify({ level: stream === "stderr" ? 40 : 30, time: Date.now(), service: source, stream, msg: line });
}
