// The admin's reviewer-webhook form (app/(dashboard)/admin/_components/review-webhook-form.tsx on the shared
// WebhookUrlForm): a refused URL is named beside the field; a saved one shows its signing secret once and the
// save button then says it rotates the secret; clearing removes URL and secret. A real browser on the real app.
import { expect, test } from "@playwright/test";
import { useSession, staff } from "./support/auth";

test("an admin sets the reviewer webhook: a bad URL is refused at the field, a good one shows its secret once, clearing turns it off", async ({
  page,
}) => {
  await useSession(page, staff("tienda-es", "admin"));
  await page.goto("/admin");
  const section = page.getByRole("region", { name: "Avisos a revisores" });
  const url = section.getByLabel("URL del webhook", { exact: true });
  try {
    await url.fill("ftp://hooks.example.com/review");
    await section.getByRole("button", { name: "Guardar y generar un secreto", exact: true }).click();
    await expect(section.getByRole("alert")).toHaveText("Solo se permiten URLs http:// y https://.");
    await expect(url).toHaveAttribute("aria-invalid", "true");

    await url.fill("http://127.0.0.1:9/review");
    await section.getByRole("button", { name: "Guardar y generar un secreto", exact: true }).click();
    const secret = section.getByLabel("Secreto de firma", { exact: true });
    await expect(secret).toHaveValue(/^whsec_|^[A-Za-z0-9_-]{20,}/);
    await expect(section.getByRole("alert")).toHaveCount(0);
    await expect(section.getByText("activados", { exact: true })).toBeVisible();
    await expect(url).toHaveValue("http://127.0.0.1:9/review");
    await expect(section.getByRole("button", { name: "Guardar y generar un secreto nuevo" })).toBeVisible();

    // After a reload the secret is gone for good: it is shown once only.
    await page.reload();
    await expect(section.getByLabel("Secreto de firma", { exact: true })).toHaveCount(0);
  } finally {
    const clear = section.getByRole("button", { name: "Desactivar los avisos" });
    if (await clear.isVisible()) await clear.click();
  }
  await expect(
    section.getByRole("status").filter({ hasText: "Los avisos a revisores están desactivados" }),
  ).toBeVisible();
  await expect(section.getByText("desactivados", { exact: true })).toBeVisible();
});
