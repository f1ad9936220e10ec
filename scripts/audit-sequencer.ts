// npm run audit:sequencer — a standalone audit sequencer (the worker already runs one; docs/audit.md).
// Leads the audit logs no other sequencer leads, integrates new events into their Merkle trees and signs
// checkpoints; prints one line per log it takes the lead of. Stops on SIGINT / SIGTERM (its advisory locks go
// with its connection, so another sequencer takes over; so they do if this process is killed).
import nextEnv from "@next/env";

nextEnv.loadEnvConfig(process.cwd(), false, { info: () => undefined, error: console.error });
if (!process.env.DATABASE_URL) {
  console.error("[audit:sequencer] DATABASE_URL is not set.");
  process.exit(2);
}
const { startSequencer } = await import("../lib/server/audit/sequencer");
const sequencer = startSequencer();
let reported = new Set<string>();
const timer = setInterval(() => {
  const now = new Set(sequencer.leading());
  for (const logId of now) if (!reported.has(logId)) console.log(`leading ${logId}`);
  reported = now;
}, 50);
const stop = () => {
  clearInterval(timer);
  void sequencer.stop().then(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
