import { describe, expect, it } from "vitest";
import { foldSupersededLines } from "./execution-timeline";
import type { ExecutionState } from "./execution-state";

const ev = (action: string, kind: string, status: ExecutionState | null = null) => ({ action, kind, status });
const send = ev("execution:send", "send");
const unknown = ev("execution:unknown", "answer");
const reconcile = (status: ExecutionState) => ev("execution:reconcile", "reconcile", status);
const check = (status: ExecutionState) => ev("execution:check_now", "check", status);
const resend = ev("execution:resend", "resend");
const succeeded = ev("execution:succeeded", "answer");

describe("foldSupersededLines", () => {
  it("folds the in-doubt lines before the settlement into one group at their place; the send and the settlement stay", () => {
    const items = foldSupersededLines([send, unknown, reconcile("unknown"), check("unknown"), succeeded]);
    expect(items).toEqual([
      { type: "event", event: send },
      { type: "superseded", events: [unknown, reconcile("unknown"), check("unknown")] },
      { type: "event", event: succeeded },
    ]);
  });

  it("a re-send between them stays visible and splits the runs", () => {
    const items = foldSupersededLines([send, unknown, resend, reconcile("unknown"), succeeded]);
    expect(items.map((i) => i.type)).toEqual(["event", "superseded", "event", "superseded", "event"]);
  });

  it("nothing is folded while the execution is not settled: every 'still in doubt' line is current", () => {
    const events = [send, unknown, reconcile("unknown"), check("pending")];
    expect(foldSupersededLines(events)).toEqual(events.map((event) => ({ type: "event", event })));
  });

  it("a reconciliation that records a settled state is the settlement; lines after it are never folded", () => {
    const settling = reconcile("succeeded");
    const later = check("succeeded");
    const items = foldSupersededLines([send, unknown, settling, later]);
    expect(items).toEqual([
      { type: "event", event: send },
      { type: "superseded", events: [unknown] },
      { type: "event", event: settling },
      { type: "event", event: later },
    ]);
  });

  it("a duplicate found by a reconciliation is never folded away", () => {
    const dup = ev("execution:duplicate_detected", "reconcile");
    const items = foldSupersededLines([send, dup, succeeded]);
    expect(items).toEqual([send, dup, succeeded].map((event) => ({ type: "event", event })));
  });

  it("an empty timeline stays empty", () => {
    expect(foldSupersededLines([])).toEqual([]);
  });
});
