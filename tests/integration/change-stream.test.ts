// The dashboard's push channel (app/api/stream/changes): server-sent events fed by the realtime core.
// Real database, real NOTIFY triggers; the stream is read as the browser's EventSource would read it.
import { afterAll, describe, expect, it } from "vitest";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { streamProposalChanges } from "@/lib/server/proposals/stream-proposal-changes";
import { stopProposalChanges } from "@/lib/server/realtime/proposal-changes";
import { actorFor, staffOf } from "../support/actors";
import { preparedForFreshOrder } from "./proposal-support";
import { ES, US, john } from "./gateway-support";

afterAll(async () => {
  await stopProposalChanges();
});

type Frame = { event: string; data: Record<string, unknown> };

/** Reads server-sent-event frames as they arrive. */
function reader(stream: ReadableStream<Uint8Array>) {
  const r = stream.getReader();
  const decoder = new TextDecoder();
  const frames: Frame[] = [];
  let buffer = "";
  let ended = false;
  void (async () => {
    for (;;) {
      const { value, done } = await r.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event) frames.push({ event, data: data ? JSON.parse(data) : {} });
      }
    }
    ended = true;
  })();
  return { frames, ended: () => ended };
}

async function until(check: () => boolean, ms = 5_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}
const setStatus = (id: string, status: string) =>
  sql`UPDATE "Proposal" SET "status" = ${status}::"ProposalStatus" WHERE "id" = ${id}::uuid`.execute(sqlPool());

describe("change stream", () => {
  it("pushes the tenant's changes (ids and status only); another tenant's change never reaches it", async () => {
    const es = await actorFor(staffOf(ES, "reviewer").email);
    const ours = (await preparedForFreshOrder(1_700, { prefix: "SSE" })).proposal;
    const theirs = (await preparedForFreshOrder(1_800, { prefix: "SSE", tenant: US, customer: john })).proposal;
    const abort = new AbortController();
    const s = reader(streamProposalChanges(es, abort.signal));
    await until(() => s.frames.some((f) => f.event === "ready"));

    await setStatus(theirs.id, "rejected");
    await setStatus(ours.id, "rejected");
    await until(() => s.frames.some((f) => f.event === "change"));
    await new Promise((r) => setTimeout(r, 200)); // time for a (wrong) second event to arrive
    expect(s.frames.filter((f) => f.event === "change")).toEqual([
      { event: "change", data: { kind: "proposal", proposalId: ours.id, status: "rejected" } },
    ]);
    abort.abort();
    await until(s.ended);
  });

  it("ends after its maximum lifetime (the browser reconnects, and the session is checked again)", async () => {
    const es = await actorFor(staffOf(ES, "ops").email);
    const s = reader(streamProposalChanges(es, new AbortController().signal, { maxMs: 300 }));
    await until(s.ended, 3_000);
    expect(s.frames.map((f) => f.event)).toContain("ready");
  });

  it("is refused to a role that cannot read proposals (an auditor)", async () => {
    const auditor = await actorFor(staffOf(ES, "auditor").email);
    expect(() => streamProposalChanges(auditor, new AbortController().signal)).toThrow(
      expect.objectContaining({ code: "permission_denied" }),
    );
  });
});
