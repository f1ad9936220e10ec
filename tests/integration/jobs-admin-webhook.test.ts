// The admin setting of the reviewer webhook (use case behind the Admin page's server action).
import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/domain/outcome";
import { db } from "@/lib/server/db/client";
import { setReviewWebhook } from "@/lib/server/admin/set-review-webhook";
import { ES, US } from "./jobs-support";
import { actorFor, staffOf } from "../support/actors";
import type { Role } from "@/lib/domain/permissions";

const actorWith = (slug: string, role: string) => actorFor(staffOf(slug, role as Role).email);

async function problemOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return { code: error.code, problem: error.details?.problem };
    throw error;
  }
  throw new Error("expected a refusal");
}

const tenant = (slug: string) =>
  db().tenant.findUniqueOrThrow({ where: { slug }, select: { reviewWebhookUrl: true, reviewWebhookSecret: true } });

describe("setting the reviewer webhook", () => {
  it("an admin sets it: new secret returned once and stored, audited with the URL but never the secret", async () => {
    const admin = await actorWith(ES, "admin");
    const first = await setReviewWebhook(admin, {
      intent: "save",
      url: "  https://hooks.example.com/review?team=es  ",
    });
    expect(first.url).toBe("https://hooks.example.com/review?team=es");
    expect(first.secret).toMatch(/^whsec_/);
    expect(await tenant(ES)).toEqual({ reviewWebhookUrl: first.url, reviewWebhookSecret: first.secret });

    // Saving again rotates the secret.
    const second = await setReviewWebhook(admin, { intent: "save", url: "https://hooks.example.com/review?team=es" });
    expect(second.secret).not.toBe(first.secret);
    expect((await tenant(ES)).reviewWebhookSecret).toBe(second.secret);

    const events = await db().auditEvent.findMany({
      where: { action: "admin:set_review_webhook", tenantId: admin.tenantId },
      orderBy: { pos: "asc" },
    });
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      actorType: "staff",
      actorId: admin.userId,
      authMethod: "password",
      outcome: "ok",
    });
    expect(events[0]!.data).toMatchObject({ url: "https://hooks.example.com/review?team=es", enabled: true });
    const stored = JSON.stringify(events);
    expect(stored).not.toContain(first.secret!);
    expect(stored).not.toContain(second.secret!);
    // Another tenant is untouched.
    expect(await tenant(US)).toEqual({ reviewWebhookUrl: null, reviewWebhookSecret: null });
  });

  it("an admin clears it: URL and secret removed, audited", async () => {
    const admin = await actorWith(US, "admin");
    await setReviewWebhook(admin, { intent: "save", url: "https://example.org/hook" });
    expect(await setReviewWebhook(admin, { intent: "clear" })).toEqual({ url: null, secret: null });
    expect(await tenant(US)).toEqual({ reviewWebhookUrl: null, reviewWebhookSecret: null });
    const last = await db().auditEvent.findFirstOrThrow({
      where: { action: "admin:set_review_webhook", tenantId: admin.tenantId },
      orderBy: { pos: "desc" },
    });
    expect(last.data).toMatchObject({ url: null, enabled: false });
  });

  it("refuses non-admins, changing nothing", async () => {
    for (const role of ["reviewer", "ops", "auditor"]) {
      const actor = await actorWith(ES, role);
      if (actor.roles.includes("admin")) continue;
      const before = await tenant(ES);
      expect(
        await problemOf(setReviewWebhook(actor, { intent: "save", url: "https://evil.example.com/" })),
      ).toMatchObject({ code: "permission_denied" });
      expect(await tenant(ES)).toEqual(before);
    }
  });

  it("re-validates the input and answers which problem it has", async () => {
    const admin = await actorWith(ES, "admin");
    const before = await tenant(ES);
    const cases: [unknown, string][] = [
      [{ intent: "save", url: "" }, "invalid"],
      [{ intent: "save" }, "invalid"],
      [{ intent: "delete-everything" }, "invalid"],
      [null, "invalid"],
      [{ intent: "save", url: "hooks.example.com" }, "invalid"],
      [{ intent: "save", url: "ftp://hooks.example.com/x" }, "protocol"],
      [{ intent: "save", url: "https://u:p@hooks.example.com/x" }, "credentials"],
      [{ intent: "save", url: `https://hooks.example.com/${"x".repeat(2100)}` }, "invalid"],
    ];
    for (const [input, problem] of cases) {
      expect(await problemOf(setReviewWebhook(admin, input))).toEqual({ code: "invalid_arguments", problem });
    }
    expect(await tenant(ES)).toEqual(before);
  });

  it("outside demo mode refuses internal addresses unless WEBHOOK_ALLOW_PRIVATE=1", async () => {
    const admin = await actorWith(ES, "admin");
    const saved = { mode: process.env.APP_MODE, allow: process.env.WEBHOOK_ALLOW_PRIVATE };
    try {
      process.env.APP_MODE = "production";
      delete process.env.WEBHOOK_ALLOW_PRIVATE;
      for (const url of ["http://127.0.0.1:9000/h", "http://localhost/h", "http://169.254.169.254/", "http://[::1]/"]) {
        expect(await problemOf(setReviewWebhook(admin, { intent: "save", url }))).toEqual({
          code: "invalid_arguments",
          problem: "private_address",
        });
      }
      process.env.WEBHOOK_ALLOW_PRIVATE = "1";
      process.env.APP_MODE = saved.mode; // the audit writer needs the demo secrets of this test database
      expect((await setReviewWebhook(admin, { intent: "save", url: "http://127.0.0.1:9000/h" })).url).toBe(
        "http://127.0.0.1:9000/h",
      );
    } finally {
      process.env.APP_MODE = saved.mode;
      if (saved.allow === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE;
      else process.env.WEBHOOK_ALLOW_PRIVATE = saved.allow;
    }
  });
});
