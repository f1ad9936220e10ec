// Keeps a child process running (scripts/start.ts: the worker and the sandbox payment provider): when it exits
// while the supervisor is not stopping — a crash, or the database restarting under it — it is started again
// after a pause that doubles with each quick failure (1 s, 2 s, 4 s … up to `maxPauseMs`) and resets once a
// run has lasted `resetAfterMs`. Every exit and restart is logged as a JSON line.
import type { ChildProcess } from "node:child_process";
import type { JsonLog } from "./json-log";

export type Supervised = {
  /** The running child (null between an exit and its restart). */
  current: () => ChildProcess | null;
  /** How many times it was restarted. */
  restarts: () => number;
  /** Stops it for good: SIGTERM, SIGKILL after `graceMs`. */
  stop: (graceMs: number) => Promise<void>;
};

export function supervise(opts: {
  name: string;
  start: () => ChildProcess;
  log: JsonLog;
  basePauseMs?: number;
  maxPauseMs?: number;
  resetAfterMs?: number;
}): Supervised {
  const { name, log, basePauseMs = 1_000, maxPauseMs = 60_000, resetAfterMs = 120_000 } = opts;
  let stopping = false;
  let child: ChildProcess | null = null;
  let failures = 0;
  let restarts = 0;
  let timer: NodeJS.Timeout | null = null;

  const run = () => {
    const startedAt = Date.now();
    child = opts.start();
    child.once("exit", (code, signal) => {
      child = null;
      if (stopping) return;
      if (Date.now() - startedAt >= resetAfterMs) failures = 0;
      const pauseMs = Math.min(maxPauseMs, basePauseMs * 2 ** failures++);
      log.warn({ process: name, exitCode: code, signal, restartInMs: pauseMs }, `${name} exited; restarting`);
      timer = setTimeout(() => {
        timer = null;
        if (stopping) return;
        restarts++;
        log.info({ process: name, restart: restarts }, `${name} restarting`);
        run();
      }, pauseMs);
      timer.unref();
    });
  };
  run();

  return {
    current: () => child,
    restarts: () => restarts,
    stop: (graceMs) => {
      stopping = true;
      if (timer) clearTimeout(timer);
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return Promise.resolve();
      c.kill("SIGTERM");
      return new Promise<void>((resolve) => {
        const kill = setTimeout(() => {
          c.kill("SIGKILL");
          resolve();
        }, graceMs);
        c.once("exit", () => {
          clearTimeout(kill);
          resolve();
        });
      });
    },
  };
}
