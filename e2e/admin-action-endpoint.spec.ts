// Admin → Action endpoint (app/(dashboard)/admin/_components/action-endpoint-form.tsx; docs/action-endpoint.md): an
// admin sets the URL, sees the generated signing secret once, gives it to the endpoint and presses "Test". The
// endpoint here is a stand-in in the test process that checks the Standard Webhooks signature as the sandbox shop
// does (the `standardwebhooks` package; a GET signs the key it asks about) and answers 404 for a key it never saw:
// the test passes only when the secret shown once is the one the product signs with.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { staff, useSession } from "./support/auth";

const header = (req: IncomingMessage, name: string) => String(req.headers[name] ?? "");

test("an admin sets the action endpoint, sees its secret once, and Test passes with a signed read", async ({
  page,
}) => {
  let secret: string | null = null;
  const seen: { method: string; path: string; verified: boolean }[] = [];
  const endpoint: Server = createServer((req, res) => {
    const path = req.url ?? "/";
    const key = decodeURIComponent(/^\/actions\/([^/?]+)/.exec(path)?.[1] ?? "");
    let verified = false;
    try {
      if (secret && key) {
        new Webhook(secret).verify(
          key,
          {
            "webhook-id": header(req, "webhook-id"),
            "webhook-timestamp": header(req, "webhook-timestamp"),
            "webhook-signature": header(req, "webhook-signature"),
          },
          { jsonParse: false },
        );
        verified = true;
      }
    } catch {
      verified = false;
    }
    seen.push({ method: req.method ?? "", path, verified });
    res.writeHead(verified ? 404 : 401, { "content-type": "application/json" });
    res.end(JSON.stringify(verified ? { error: "not_found" } : { error: "invalid_signature" }));
  });
  await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/actions`;
  const admin = staff("tienda-es", "admin");

  await useSession(page, admin);
  await page.goto("/admin?section=actionEndpoint");
  await expect(
    page.getByTestId("admin-nav").getByRole("link", { name: "Endpoint de acciones" }).first(),
  ).toHaveAttribute("aria-current", "page");
  const section = page.getByRole("region", { name: "Endpoint de acciones" });
  page.on("dialog", (dialog) => void dialog.accept());
  try {
    await expect(section.getByTestId("action-endpoint-url")).toContainText("Sin configurar");
    await section.getByLabel("URL del endpoint", { exact: true }).fill(url);
    const save = section.getByRole("button", { name: "Guardar", exact: true });
    await save.click();
    const stepUp = section.getByLabel("Confirma con tu contraseña");
    const shown = section.getByTestId("action-endpoint-secret");
    await expect(shown.or(stepUp)).toBeVisible();
    if (await stepUp.isVisible()) {
      await stepUp.fill(admin.password);
      await save.click();
    }
    await expect(shown).toHaveText(/^whsec_[A-Za-z0-9+/]{43}=$/);
    secret = (await shown.textContent())!;
    await expect(section.getByTestId("action-endpoint-secret-hint")).toContainText(`whsec_…${secret.slice(-4)}`);
    await expect(section.getByTestId("action-endpoint-url")).toHaveText(url);

    await section.getByRole("button", { name: "Probar", exact: true }).click();
    await expect(section.getByTestId("action-endpoint-test-result")).toContainText("aceptó la firma");
    expect(seen).toContainEqual({ method: "GET", path: expect.stringMatching(/^\/actions\/probe_/), verified: true });
    expect(seen.filter((s) => s.method !== "GET")).toEqual([]); // Test reads only: nothing is POSTed

    // Shown once: after a reload only the hint is left.
    await page.reload();
    await expect(section.getByTestId("action-endpoint-secret")).toHaveCount(0);
    await expect(section.getByTestId("action-endpoint-secret-hint")).toContainText(`whsec_…${secret.slice(-4)}`);

    // A new secret with an overlap: the endpoint still holds the old one, and Test still passes (both sign).
    await section.getByLabel("Generar un nuevo secreto de firma").check();
    await section.getByLabel("Minutos que el secreto actual sigue firmando tras generar uno nuevo").fill("30");
    await save.click();
    await expect(shown.or(stepUp)).toBeVisible();
    if (await stepUp.isVisible()) {
      await stepUp.fill(admin.password);
      await save.click();
    }
    await expect(shown).toHaveText(/^whsec_/);
    expect(await shown.textContent()).not.toBe(secret);
    await expect(section.getByTestId("action-endpoint-previous-secret")).toContainText(
      "sigue firmando junto al actual",
    );
    await section.getByRole("button", { name: "Probar", exact: true }).click();
    await expect(section.getByTestId("action-endpoint-test-result")).toContainText("aceptó la firma");
  } finally {
    const remove = section.getByRole("button", { name: "Quitar el endpoint", exact: true });
    if (await remove.isVisible()) {
      await remove.click();
      const stepUp = section.getByLabel("Confirma con tu contraseña");
      if (await stepUp.isVisible().catch(() => false)) {
        await stepUp.fill(admin.password);
        await remove.click();
      }
      await expect(section.getByTestId("action-endpoint-url")).toContainText("Sin configurar");
    }
    await new Promise<void>((resolve) => endpoint.close(() => resolve()));
  }
});
