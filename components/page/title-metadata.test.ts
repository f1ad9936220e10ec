import { describe, expect, it, vi } from "vitest";

// The request's messages, as next-intl/server would give them for one language.
vi.mock("next-intl/server", () => ({
  getTranslations: async (namespace: string) => (key: string) => `${namespace}.${key} in the request's language`,
}));

const { titleMetadata } = await import("./title-metadata");

describe("titleMetadata", () => {
  it("titles the page with the namespace's `title` message", async () => {
    await expect(titleMetadata("queue")()).resolves.toEqual({ title: "queue.title in the request's language" });
  });

  it("takes another key of the namespace when the page's title has its own name", async () => {
    await expect(titleMetadata("audit", "evidenceTitle")()).resolves.toEqual({
      title: "audit.evidenceTitle in the request's language",
    });
  });
});
