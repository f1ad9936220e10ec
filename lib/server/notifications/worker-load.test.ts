// The worker (scripts/worker.ts) runs under Node's react-server condition, where some packages resolve
// to React-server builds: "next-intl" there imports React client hooks and the worker died at start
// (found by e2e/notifications.spec.ts). This loads the task registry and renders each message the way the
// worker does, in a child process with the worker's flags, and goes red if a notification module
// imports something that cannot load there.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const script = `
  const { tasks } = await import("./lib/server/jobs/tasks.ts");
  const { proposalMail, inDoubtMail } = await import("./lib/server/notifications/notification-messages.ts");
  const { slackProposalMessage } = await import("./lib/server/notifications/slack-payload.ts");
  const p = { id: "p1", amountMinor: 4321, currency: "EUR", recipientDisplay: "Visa •••• 4242", expiresAt: new Date("2026-11-30T12:00:00Z") };
  const ctx = { locale: "es-ES", timeZone: "Europe/Madrid", baseUrl: "http://x" };
  console.log(JSON.stringify({
    tasks: Object.keys(tasks).includes("deliver_notification"),
    mail: proposalMail("new_proposal", p, ctx).subject,
    doubt: inDoubtMail({ ...p, lastError: null }, { ...ctx, locale: "en-US" }).subject,
    slack: slackProposalMessage("expiring", p, ctx).blocks[0].text.text,
    kind: proposalMail("new_proposal", { id: "p2", kind: "change_shipping_address", orderNumber: "ORD-1", expiresAt: p.expiresAt }, ctx).subject,
  }));
  process.exit(0);
`;

describe("notification modules under the worker's react-server condition", () => {
  it("load and render", () => {
    const res = spawnSync(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "--input-type=module", "-e", script],
      {
        encoding: "utf8",
        timeout: 60_000,
        env: { ...process.env, APP_MODE: "demo", LOG_LEVEL: "silent" },
      },
    );
    expect(res.stderr).not.toMatch(/SyntaxError|does not provide an export/);
    expect(res.status).toBe(0);
    const out = JSON.parse(res.stdout.trim().split("\n").pop()!) as Record<string, unknown>;
    expect(out).toMatchObject({ tasks: true, slack: "La revisión de un reembolso caduca pronto" });
    // Intl puts (narrow) no-break spaces in amounts and times: \s matches them.
    expect(out.mail).toMatch(/^Reembolso por revisar: 43,21\s€ — caduca 30 nov 2026,\s12:00\sUTC$/);
    expect(out.doubt).toBe("Execution in doubt: refund of €43.21");
    // A kind's label comes from messages' `kinds` section, loaded the same way.
    expect(out.kind).toMatch(/^Por revisar: Cambio de dirección de envío, pedido ORD-1 — caduca/);
  }, 60_000); // a fresh Node process compiling the modules: seconds on a loaded machine, not vitest's default 5
});
