// Notification e-mails through the running app: this spec listens with a real SMTP server (smtp-server)
// on E2E_PORT + 60 — the SMTP_URL that playwright.config.ts gives the server under test — the agent
// prepares a refund over HTTP (e2e/support/gateway.ts), and the worker's e-mail with the proposal's amount
// and link arrives. Then a reviewer follows the link, and turns a preference off in the prefs page.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { useSession, staff } from "./support/auth";
import { freshOrder, withDb } from "./support/db";
import { proposeRefund } from "./support/gateway";

const port = Number(process.env.E2E_PORT ?? 3100);
const smtpPort = port + 60;
type Mail = { to: string[]; subject: string; text: string };
const mails: Mail[] = [];
let smtp: SMTPServer;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (m) => {
          mails.push({
            to: session.envelope.rcptTo.map((a) => a.address),
            subject: m.subject ?? "",
            text: m.text ?? "",
          });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.server.once("error", reject);
    smtp.listen(smtpPort, "127.0.0.1", resolve);
  });
  expect((smtp.server.address() as AddressInfo).port).toBe(smtpPort);
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const lucia = staff("tienda-es", "reviewer", 0);
const javier = staff("tienda-es", "reviewer", 1);
const mailsAbout = (proposalId: string) => mails.filter((m) => m.text.includes(`/proposals/${proposalId}`));
const recipientsOf = (proposalId: string) =>
  mailsAbout(proposalId)
    .flatMap((m) => m.to)
    .sort();

test("an e-mail with the proposal's amount and link reaches the test SMTP server", async ({ page }) => {
  const order = await freshOrder("tienda-es", 4_567);
  const proposalId = await proposeRefund("tienda-es", order);

  // Both reviewers of the tenant, nobody else (ops, auditor, admin, the other tenant).
  await expect.poll(() => recipientsOf(proposalId), { timeout: 30_000 }).toEqual([javier.email, lucia.email].sort());
  const mail = mailsAbout(proposalId).find((m) => m.to.includes(lucia.email))!;
  const amount = new Intl.NumberFormat("es-ES", { style: "currency", currency: "EUR" }).format(45.67);
  expect(mail.subject).toContain(amount);
  expect(mail.text).toContain(`Importe: ${amount}`);
  expect(mail.text).toContain("Visa •••• 4242");
  const link = new RegExp(`https?://\\S+/proposals/${proposalId}`).exec(mail.text)?.[0];
  expect(link).toBe(`http://localhost:${port}/proposals/${proposalId}`);

  // The link opens the proposal for a signed-in reviewer.
  await useSession(page, lucia);
  await page.goto(link!);
  await expect(page.getByTestId("amount")).toContainText("4567 EUR en unidades mínimas");
});

test("a reviewer turns new-proposal e-mails off in the prefs page: it persists, and the next proposal reaches only the others", async ({
  page,
}) => {
  await useSession(page, javier);
  await page.goto("/account/notifications");
  await expect(page.getByRole("heading", { name: "Notificaciones" })).toBeVisible();
  const newProposal = page.getByLabel("Una nueva propuesta de reembolso necesita revisión");
  const inDoubt = page.getByLabel("Una ejecución queda en duda");
  await expect(newProposal).toBeChecked();
  await expect(inDoubt).toBeDisabled(); // not for a reviewer
  await newProposal.uncheck();
  await page.getByRole("button", { name: "Guardar preferencias" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Preferencias guardadas." })).toBeVisible();

  await page.reload();
  await expect(page.getByLabel("Una nueva propuesta de reembolso necesita revisión")).not.toBeChecked();
  await expect(page.getByLabel("Una propuesta pendiente está a punto de caducar")).toBeChecked();
  const stored = await withDb(
    async (db) =>
      (
        await db.query(
          `SELECT np.* FROM "NotificationPreference" np JOIN "StaffUser" s ON s.id = np."staffUserId" WHERE s.email = $1`,
          [javier.email],
        )
      ).rows,
  );
  expect(stored).toMatchObject([{ emailNewProposal: false, emailExpiring: true }]);

  // The API behind the page: validated, same-origin only, and only ever the caller's own row.
  const origin = `http://localhost:${port}`;
  const bad = await page.request.put("/api/account/notifications", {
    data: { emailExpiring: "no" },
    headers: { origin },
  });
  expect(bad.status()).toBe(400);
  expect(await bad.json()).toMatchObject({ code: "invalid_arguments" });
  const crossSite = await page.request.put("/api/account/notifications", {
    data: { emailExpiring: false },
    headers: { origin: "https://evil.example" },
  });
  expect(crossSite.status()).toBe(403);
  expect((await page.request.get("/api/account/notifications")).ok()).toBe(true);
  await expect
    .poll(async () =>
      ((await page.request.get("/api/account/notifications")).json() as Promise<{ emailExpiring: boolean }>).then(
        (b) => b.emailExpiring,
      ),
    )
    .toBe(true);

  const order = await freshOrder("tienda-es", 3_210);
  const proposalId = await proposeRefund("tienda-es", order);
  await expect.poll(() => recipientsOf(proposalId), { timeout: 30_000 }).toEqual([lucia.email]);
  const rows = await withDb(
    async (db) =>
      (await db.query(`SELECT "staffUserId" FROM "Notification" WHERE "proposalId" = $1`, [proposalId])).rows,
  );
  expect(rows).toHaveLength(1); // no row at all for the reviewer who opted out

  // Back to the default, so that later specs see the demo as it was.
  await page.getByLabel("Una nueva propuesta de reembolso necesita revisión").check();
  await page.getByRole("button", { name: "Guardar preferencias" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Preferencias guardadas." })).toBeVisible();
});

test("an admin sets a Slack-compatible webhook; the next proposal arrives there as Block Kit with amount, recipient, expiry and link", async ({
  page,
}) => {
  const posts: { path: string; body: string }[] = [];
  const hook = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      posts.push({ path: req.url ?? "", body: Buffer.concat(chunks).toString("utf8") });
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
  const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/services/T0/B0/e2e`;
  try {
    await useSession(page, staff("tienda-es", "admin"));
    await page.goto("/admin");
    const section = page.getByRole("region", { name: "Notificaciones de Slack" });
    await expect(section.getByTestId("slack-status")).toHaveText("desactivado");
    await section.getByLabel("URL del webhook entrante").fill(hookUrl);
    await section.getByRole("button", { name: "Guardar", exact: true }).click();
    await expect(section.getByTestId("slack-status")).toHaveText(`activado (${new URL(hookUrl).host})`);
    await expect(section.getByLabel("URL del webhook entrante")).toHaveValue(""); // the URL is never shown back

    const order = await freshOrder("tienda-es", 2_468);
    const proposalId = await proposeRefund("tienda-es", order);
    await expect.poll(() => posts.filter((p) => p.body.includes(proposalId)).length, { timeout: 30_000 }).toBe(1);
    const post = posts.find((p) => p.body.includes(proposalId))!;
    expect(post.path).toBe("/services/T0/B0/e2e");
    const body = JSON.parse(post.body) as {
      blocks: { type: string; text?: { text: string }; fields?: { text: string }[]; elements?: { url: string }[] }[];
    };
    expect(body.blocks.map((b) => b.type)).toEqual(["header", "section", "actions"]);
    expect(body.blocks[0]!.text!.text).toBe("Reembolso pendiente de revisión");
    const amount = new Intl.NumberFormat("es-ES", { style: "currency", currency: "EUR" }).format(24.68);
    expect(body.blocks[1]!.fields!.map((f) => f.text)).toEqual([
      `*Importe*\n${amount}`,
      "*Destinatario*\nVisa •••• 4242",
      expect.stringMatching(/^\*Caduca\*\n<!date\^\d+\^/),
    ]);
    expect(body.blocks[2]!.elements![0]!.url).toBe(`http://localhost:${port}/proposals/${proposalId}`);

    await section.getByRole("button", { name: "Desactivar Slack" }).click();
    await expect(section.getByTestId("slack-status")).toHaveText("desactivado");
  } finally {
    await new Promise<void>((resolve) => hook.close(() => resolve()));
  }
});

test("roles that receive no notifications have no preferences: the page and the API refuse an auditor", async ({
  page,
}) => {
  await useSession(page, staff("tienda-es", "auditor"));
  const res = await page.request.get("/api/account/notifications");
  expect(res.status()).toBe(403);
  expect(await res.json()).toMatchObject({ code: "permission_denied" });
  await page.goto("/account/notifications");
  await expect(page).toHaveURL(/\/forbidden$/);
});
