// A witness URL is typed by an admin and the sequencer POSTs to it from inside our network (issue #34, finding
// 6): pointed at a server that redirects to a loopback-only page (/api/metrics), the bare fetch followed the
// redirect and `lastError` quoted the page to the admin. Now the submission goes through the webhooks' guarded
// client: no redirect followed, internal addresses refused (literal, and at connect time outside the demo), and
// `lastError` names the failure in fixed words, never quoting the answer. Real local servers, the real log.
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { SIG_COSIGNATURE_V1, vkeyOf } from "@/lib/domain/signed-note";
import { db } from "@/lib/server/db/client";
import { integratePending } from "@/lib/server/audit/sequencer";
import { submitToWitnesses } from "@/lib/server/audit/submit-to-witnesses";
import { listWitnesses } from "@/lib/server/admin/witnesses/list-witnesses";
import { ES, ana, anthropicCall, freshTrace, headersFor, send, tokenFor } from "./gateway-support";
import { actorFor, staffOf } from "../support/actors";

// A public-looking name that resolves to loopback (DNS rebinding): the only name the mock answers itself.
vi.mock("node:dns", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:dns")>();
  const lookup = (hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (hostname !== "witness.example.test") return real.lookup(hostname, options as never, callback as never);
    const addresses = [{ address: "127.0.0.1", family: 4 }];
    return options.all ? callback(null, addresses) : callback(null, "127.0.0.1", 4);
  };
  return { ...real, default: { ...real, lookup }, lookup };
});

process.env.AUDIT_SIGNER_STATE_DIR = mkdtempSync(join(tmpdir(), "audit-signer-"));

/** What /api/metrics answers: only loopback may read it. The redirect target stands in for it. */
const METRICS = "# HELP approvalgw_jobs_pending Jobs waiting in the queue\napprovalgw_jobs_pending 3\n";
const SECRET = "SECRET-BODY-7f3a the witness's answer must never reach lastError";

let hits: string[] = [];
const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
};
// The loopback-only page (as /api/metrics is).
const inside = createServer((req, res) => {
  hits.push(`inside ${req.method} ${req.url}`);
  res.writeHead(200, { "content-type": "text/plain" }).end(METRICS);
});
// The "witness" the admin registered: each path answers one way.
const outside = createServer((req, res) => {
  hits.push(`outside ${req.method} ${req.url}`);
  req.resume();
  req.on("end", () => {
    const path = req.url ?? "";
    if (path.startsWith("/redirect/")) return res.writeHead(307, { location: insideUrl }).end(SECRET);
    if (path.startsWith("/metrics-as-200/")) return res.writeHead(200, { "content-type": "text/plain" }).end(METRICS);
    if (path.startsWith("/refuses/")) return res.writeHead(400, { "content-type": "text/plain" }).end(SECRET);
    if (path.startsWith("/teapot/")) return res.writeHead(418, { "content-type": "text/plain" }).end(SECRET);
    if (path.startsWith("/huge/")) return res.writeHead(200).end(`${SECRET}\n`.repeat(10_000));
    res.writeHead(404).end(SECRET);
  });
});
let insideUrl = "";
let outsidePort = 0;

let es = "";
const key = () => vkeyOf("w.example", SIG_COSIGNATURE_V1, generateKeyPairSync("ed25519").publicKey);

async function witnessAt(path: string, host = "127.0.0.1") {
  await db().auditWitness.deleteMany({ where: { tenantId: es } });
  await db().auditWitness.create({
    data: { tenantId: es, name: "w.example", vkey: key(), url: `http://${host}:${outsidePort}${path}` },
  });
}
const lastError = async () =>
  (await db().auditWitness.findFirstOrThrow({ where: { tenantId: es }, select: { lastError: true } })).lastError;

/** Runs `fn` as a production instance would (no demo: internal addresses refused). */
async function outsideTheDemo<T>(fn: () => Promise<T>): Promise<T> {
  const saved = { mode: process.env.APP_MODE, allow: process.env.WEBHOOK_ALLOW_PRIVATE };
  process.env.APP_MODE = "production";
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
  try {
    return await fn();
  } finally {
    process.env.APP_MODE = saved.mode;
    if (saved.allow !== undefined) process.env.WEBHOOK_ALLOW_PRIVATE = saved.allow;
  }
}

beforeAll(async () => {
  es = (await db().tenant.findUniqueOrThrow({ where: { slug: ES } })).id;
  insideUrl = `http://127.0.0.1:${await listen(inside)}/api/metrics`;
  outsidePort = await listen(outside);
  // A signed checkpoint to submit (before any witness row exists, so the sequencer submits nothing itself).
  await send(
    anthropicCall("lookup_order", { order_id: "ORD-1001" }),
    headersFor({ token: await tokenFor(ES, ana), trace: freshTrace() }),
  );
  await integratePending();
}, 60_000);
beforeEach(() => {
  hits = [];
});
afterAll(async () => {
  for (const s of [inside, outside]) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

describe("witness submission cannot be steered inside, nor read back", () => {
  it("a witness that redirects to a loopback-only page: not followed, lastError names the redirect", async () => {
    await witnessAt("/redirect/");
    expect(await submitToWitnesses(es)).toEqual({ cosigned: 0, failed: 1 });
    expect(hits).toEqual(["outside POST /redirect/add-checkpoint"]);
    expect(await lastError()).toBe("307 redirect not followed");
  });

  it("the admin's witness list shows the failure, never the page it would have led to", async () => {
    await witnessAt("/redirect/");
    await submitToWitnesses(es);
    const list = await listWitnesses(await actorFor(staffOf(ES, "admin").email));
    expect(list.witnesses.map((w) => w.lastError)).toEqual(["307 redirect not followed"]);
    expect(JSON.stringify(list)).not.toMatch(/HELP|approvalgw|SECRET-BODY/);
  });

  it("a witness that answers an error with a body: lastError names the status, the body is not kept", async () => {
    await witnessAt("/refuses/");
    expect(await submitToWitnesses(es)).toEqual({ cosigned: 0, failed: 1 });
    expect(await lastError()).toBe("400 the witness found the request malformed");
    await witnessAt("/teapot/");
    await submitToWitnesses(es);
    expect(await lastError()).toBe("418 not a witness answer");
    expect(hits).toEqual(["outside POST /refuses/add-checkpoint", "outside POST /teapot/add-checkpoint"]);
  });

  it("a 200 that is not a cosignature (the page itself, or a flood): named, not quoted", async () => {
    for (const path of ["/metrics-as-200/", "/huge/"]) {
      await witnessAt(path);
      expect(await submitToWitnesses(es)).toEqual({ cosigned: 0, failed: 1 });
      expect(await lastError()).toBe("200 without a valid cosignature of its key");
    }
  });

  it("outside the demo, a loopback witness is refused without a connection, by its literal or its DNS name", async () => {
    await witnessAt("/refuses/");
    expect(await outsideTheDemo(() => submitToWitnesses(es))).toEqual({ cosigned: 0, failed: 1 });
    expect(await lastError()).toBe("witness URL refused (private_address)");
    await witnessAt("/refuses/", "witness.example.test");
    expect(await outsideTheDemo(() => submitToWitnesses(es))).toEqual({ cosigned: 0, failed: 1 });
    expect(await lastError()).toBe("the witness host resolves to an internal address");
    expect(hits).toEqual([]);
    // In the demo (private addresses allowed) the same name does connect: the mock really resolves.
    await submitToWitnesses(es);
    expect(hits).toEqual(["outside POST /refuses/add-checkpoint"]);
  });
});
