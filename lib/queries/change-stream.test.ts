// The page's one change stream, shared by its listeners: a listener that joins a stream another component already
// opened is told it is live ("ready"), so it re-reads what was pushed before it listened (the queue joined after
// the tab title and missed a new proposal's push — a browser-run flake of approvals.spec).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ChangeEvent } from "./change-stream";

class FakeEventSource {
  static CLOSED = 2;
  static last: FakeEventSource | null = null;
  static opened = 0;
  readyState = 1;
  onerror: (() => void) | null = null;
  private handlers = new Map<string, ((m: { data: string }) => void)[]>();
  constructor(readonly url: string) {
    FakeEventSource.last = this;
    FakeEventSource.opened++;
  }
  addEventListener(type: string, fn: (m: { data: string }) => void) {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), fn]);
  }
  fire(type: string, data = "{}") {
    for (const fn of this.handlers.get(type) ?? []) fn({ data });
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
}

let stream: typeof import("./change-stream");
beforeEach(async () => {
  vi.stubGlobal("EventSource", FakeEventSource);
  FakeEventSource.last = null;
  FakeEventSource.opened = 0;
  vi.resetModules();
  stream = await import("./change-stream");
});
afterEach(() => vi.unstubAllGlobals());

const tick = () => new Promise((r) => setTimeout(r, 0));
const recorder = () => {
  const seen: ChangeEvent["type"][] = [];
  return { seen, listener: (e: ChangeEvent) => void seen.push(e.type) };
};

describe("the shared change stream", () => {
  it("a listener that joins an open stream is told it is live, once; the ones already there are not told again", async () => {
    const first = recorder();
    stream.subscribeChanges(first.listener);
    FakeEventSource.last!.fire("ready");
    expect(stream.isStreamOpen()).toBe(true);
    const late = recorder();
    stream.subscribeChanges(late.listener);
    await tick();
    expect(late.seen).toEqual(["ready"]);
    expect(first.seen).toEqual(["ready"]);
    expect(FakeEventSource.opened).toBe(1); // one stream for the page
    FakeEventSource.last!.fire("change", JSON.stringify({ kind: "proposal", proposalId: "p", status: "pending" }));
    expect(late.seen).toEqual(["ready", "change"]);
  });

  it("a listener that joins before the stream is open hears its one ready, and one that leaves at once hears nothing", async () => {
    const early = recorder();
    stream.subscribeChanges(early.listener);
    await tick();
    expect(early.seen).toEqual([]);
    FakeEventSource.last!.fire("ready");
    const gone = recorder();
    const unsubscribe = stream.subscribeChanges(gone.listener);
    unsubscribe();
    await tick();
    expect(early.seen).toEqual(["ready"]);
    expect(gone.seen).toEqual([]);
  });
});
