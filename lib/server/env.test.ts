import { afterEach, describe, expect, it, vi } from "vitest";

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  vi.resetModules();
});

async function load(vars: Record<string, string | undefined>) {
  process.env = { ...saved, APP_MODE: "demo", ...vars };
  vi.resetModules();
  return import("./env");
}

describe("environment", () => {
  it("parses defaults and typed values", async () => {
    const m = await load({
      DATABASE_POOL_SIZE: "",
      WORKER_CONCURRENCY: "7",
      EXECUTION_STALE_SENDING_MS: "0",
      WEBHOOK_ALLOW_PRIVATE: "1",
      LOG_LEVEL: "warn",
    });
    const e = m.env();
    expect(e.DATABASE_POOL_SIZE).toBe(10);
    expect(e.WORKER_CONCURRENCY).toBe(7);
    expect(e.EXECUTION_STALE_SENDING_MS).toBe(0);
    expect(e.WEBHOOK_ALLOW_PRIVATE).toBe(true);
    expect(m.logLevel).toBe("warn");
    expect(m.databasePoolSize()).toBe(10);
  });

  it("fails fast listing every invalid variable instead of falling back to defaults", async () => {
    const vars = {
      WORKER_CONCURRENCY: "abc",
      DATABASE_POOL_SIZE: "0",
      PAYMENT_PROVIDER_URL: "ftp://x",
      LOG_LEVEL: "loud",
      OIDC_ISSUER: "https://sso.example",
    };
    await expect(load(vars)).rejects.toThrow(
      /WORKER_CONCURRENCY[\s\S]*DATABASE_POOL_SIZE|DATABASE_POOL_SIZE[\s\S]*WORKER_CONCURRENCY/,
    );
    process.env = { ...saved, APP_MODE: "demo" };
    const { envProblems } = await load({});
    const problems = envProblems({ ...vars, APP_MODE: "demo" });
    expect(problems.map((p) => p.split(":")[0]).sort()).toEqual([
      "DATABASE_POOL_SIZE",
      "LOG_LEVEL",
      "OIDC_ISSUER",
      "PAYMENT_PROVIDER_URL",
      "WORKER_CONCURRENCY",
    ]);
  });

  it("re-reads a variable changed at run time (tests and scripts do this)", async () => {
    const m = await load({ WEBHOOK_ALLOW_PRIVATE: "0", APP_MODE: "production" });
    expect(m.webhookAllowPrivate()).toBe(false);
    process.env.WEBHOOK_ALLOW_PRIVATE = "1";
    expect(m.webhookAllowPrivate()).toBe(true);
  });

  it("e-mail: off without SMTP_URL; an smtp(s) URL only; MAIL_FROM required outside the demo", async () => {
    const m = await load({ SMTP_URL: "", MAIL_FROM: "" });
    expect(m.mailConfig()).toBeNull();
    expect(m.notifyExpiringWithinMinutes()).toBe(10);
    expect(
      m.envProblems({ APP_MODE: "demo", SMTP_URL: "http://mail.example.com" }).map((p) => p.split(":")[0]),
    ).toEqual(["SMTP_URL"]);
    expect(
      m.envProblems({ APP_MODE: "production", SMTP_URL: "smtp://mail.example.com:587" }).map((p) => p.split(":")[0]),
    ).toEqual(["MAIL_FROM"]);
    expect(
      m.envProblems({
        APP_MODE: "production",
        SMTP_URL: "smtps://u:p@mail.example.com",
        MAIL_FROM: "Approvals <a@example.com>",
      }),
    ).toEqual([]);
    expect(
      m.envProblems({ APP_MODE: "demo", NOTIFY_EXPIRING_WITHIN_MINUTES: "0" }).map((p) => p.split(":")[0]),
    ).toEqual(["NOTIFY_EXPIRING_WITHIN_MINUTES"]);
    process.env.SMTP_URL = "smtp://127.0.0.1:2525";
    expect(m.mailConfig()).toEqual({ smtpUrl: "smtp://127.0.0.1:2525", from: m.DEMO_MAIL_FROM });
  });
});
