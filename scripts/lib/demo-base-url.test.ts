import { describe, expect, it } from "vitest";
import { demoBaseUrl } from "./demo-base-url";

describe("agent:demo's base URL", () => {
  it("follows PORT like npm start, and --base-url wins", () => {
    expect(demoBaseUrl([], {})).toBe("http://localhost:3000");
    expect(demoBaseUrl([], { PORT: "3100" })).toBe("http://localhost:3100");
    expect(demoBaseUrl(["--base-url", "http://127.0.0.1:4000/"], { PORT: "3100" })).toBe("http://127.0.0.1:4000");
  });
});
