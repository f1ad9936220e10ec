// Secret rotation with an overlap (docs/operations.md "Keys and rotation"), through the real code paths:
// next-auth's own session handler reading a cookie signed with the previous NEXTAUTH_SECRET, and the auditor's
// search finding events whose fingerprints were made with the previous AUDIT_HMAC_KEY.
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { getServerSession } from "next-auth";
import { encode } from "next-auth/jwt";
import { fingerprintWithKey } from "@/lib/domain/redaction";
import { authOptions } from "@/lib/server/auth/options";
import { searchAuditEvents } from "@/lib/server/audit/search-audit-events";
import { db } from "@/lib/server/db/client";
import { ES, ana, anthropicCall, freshTrace, headersFor, send, tokenFor } from "./gateway-support";
import { actorOf, customerEmail } from "./audit-support";

const saved = { ...process.env };
afterEach(() => {
  for (const name of ["NEXTAUTH_SECRET", "NEXTAUTH_SECRET_PREVIOUS", "AUDIT_HMAC_KEY", "AUDIT_HMAC_KEY_PREVIOUS"]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});
const key = () => randomBytes(32).toString("base64url");

/** The session next-auth itself answers for a request carrying this cookie (its own session handler). */
async function sessionFor(cookie: string) {
  const headers: Record<string, string> = {};
  const req = {
    headers: { cookie: `next-auth.session-token=${cookie}` },
    cookies: { "next-auth.session-token": cookie },
  };
  const res = { getHeader: (n: string) => headers[n], setHeader: (n: string, v: string) => void (headers[n] = v) };
  // @ts-expect-error -- the pages-router call shape (req, res, options); only headers and cookies are read
  const session = await getServerSession(req, res, authOptions());
  return { user: (session as { user?: { id: string; email: string } } | null)?.user };
}

describe("NEXTAUTH_SECRET rotation", () => {
  it("accepts a session signed with the previous secret during the overlap, and refuses it after", async () => {
    const reviewer = await actorOf(ES, "reviewer");
    const before = key();
    const claims = {
      sub: reviewer.userId,
      uid: reviewer.userId,
      email: reviewer.email,
      tenantId: reviewer.tenantId,
      roles: reviewer.roles,
      authTime: Math.floor(Date.now() / 1000),
    };
    const cookie = await encode({ token: claims, secret: before, maxAge: 3600 });

    process.env.NEXTAUTH_SECRET = before;
    expect((await sessionFor(cookie)).user?.id).toBe(reviewer.userId);

    // Rotated, overlap: the new secret is current, the old one is previous.
    process.env.NEXTAUTH_SECRET = key();
    process.env.NEXTAUTH_SECRET_PREVIOUS = before;
    expect((await sessionFor(cookie)).user).toMatchObject({ id: reviewer.userId, email: reviewer.email });
    // A cookie signed with neither is refused during the overlap too.
    expect((await sessionFor(await encode({ token: claims, secret: key(), maxAge: 3600 }))).user).toBeUndefined();

    // Overlap over: the previous secret is removed.
    delete process.env.NEXTAUTH_SECRET_PREVIOUS;
    expect((await sessionFor(cookie)).user).toBeUndefined();
  });
});

describe("AUDIT_HMAC_KEY rotation", () => {
  it("finds events fingerprinted under the previous key while new events use the new key", async () => {
    const oldKey = key();
    const newKey = key();
    const email = customerEmail(ES, "ana");
    const auditor = await actorOf(ES, "auditor");

    process.env.AUDIT_HMAC_KEY = oldKey;
    const before = freshTrace();
    await send(
      anthropicCall("lookup_order", { order_id: "ORD-1001" }),
      headersFor({ token: await tokenFor(ES, ana), trace: before }),
    );
    const oldEvent = await db().auditEvent.findFirstOrThrow({ where: { traceId: before } });
    expect(oldEvent.endUser).toBe(fingerprintWithKey(oldKey, ana));

    process.env.AUDIT_HMAC_KEY = newKey;
    process.env.AUDIT_HMAC_KEY_PREVIOUS = oldKey;
    const after = freshTrace();
    await send(
      anthropicCall("lookup_order", { order_id: "ORD-1001" }),
      headersFor({ token: await tokenFor(ES, ana), trace: after }),
    );
    const newEvent = await db().auditEvent.findFirstOrThrow({ where: { traceId: after } });
    expect(newEvent.endUser).toBe(fingerprintWithKey(newKey, ana));
    expect(newEvent.fingerprints).not.toContain(fingerprintWithKey(oldKey, ana));

    const during = new Set(
      (await searchAuditEvents(auditor, { subject: email, limit: 200 })).events.map((e) => e.traceId),
    );
    expect(during.has(before)).toBe(true);
    expect(during.has(after)).toBe(true);

    // Without the previous key, the earlier event is no longer found by the person's email (only the new one is).
    delete process.env.AUDIT_HMAC_KEY_PREVIOUS;
    const without = new Set(
      (await searchAuditEvents(auditor, { subject: email, limit: 200 })).events.map((e) => e.traceId),
    );
    expect(without.has(before)).toBe(false);
    expect(without.has(after)).toBe(true);
  });
});
