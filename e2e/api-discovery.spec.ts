// What API clients discover on the production build: the OpenAPI document at /api/openapi.json, and — for MCP
// clients such as the MCP Inspector — nothing that would start OAuth: a request to /api/mcp without a key gets a
// 401 whose challenge is `AgentKey` with no resource_metadata, and none of the OAuth discovery documents exist
// (docs/agent-api.md "MCP"). Plain HTTP against the real server; no browser page needed.
import { expect, test } from "@playwright/test";

test("GET /api/openapi.json serves the OpenAPI 3.1 document from the production build", async ({ request }) => {
  const res = await request.get("/api/openapi.json");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("application/json");
  const doc = (await res.json()) as {
    openapi: string;
    paths: Record<string, Record<string, unknown>>;
    components: { securitySchemes: Record<string, unknown> };
  };
  expect(doc.openapi).toBe("3.1.0");
  expect(Object.keys(doc.paths)).toEqual(
    expect.arrayContaining([
      "/api/agent/tool-calls",
      "/api/mcp",
      "/api/admin/webhook-deliveries",
      "/api/v1/orders/{number}",
    ]),
  );
  expect(Object.keys(doc.components.securitySchemes)).toEqual(
    expect.arrayContaining(["agentKey", "integrationKey", "staffSession"]),
  );
});

test("the MCP Inspector path: no key → 401 AgentKey without resource_metadata, and no OAuth discovery document anywhere", async ({
  request,
}) => {
  const res = await request.post("/api/mcp", {
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    data: {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "inspector-like", version: "0" } },
    },
  });
  expect(res.status()).toBe(401);
  const challenge = res.headers()["www-authenticate"] ?? "";
  expect(challenge).toMatch(/^AgentKey /);
  expect(challenge).not.toMatch(/^\s*bearer/i);
  expect(challenge).not.toMatch(/resource_metadata/i);
  const body = (await res.json()) as { code: string; error: { data: { code: string } } };
  expect(body.code).toBe("unauthenticated");
  expect(JSON.stringify(body)).not.toMatch(/oauth|well-known/i);

  // Where MCP clients look for OAuth metadata (RFC 9728 / RFC 8414 / OIDC discovery): nothing is served.
  for (const path of [
    "/.well-known/oauth-protected-resource",
    "/.well-known/oauth-protected-resource/api/mcp",
    "/.well-known/oauth-authorization-server",
    "/.well-known/openid-configuration",
    "/api/mcp/.well-known/oauth-protected-resource",
  ]) {
    const probe = await request.get(path, { maxRedirects: 0 });
    expect(probe.status(), path).toBeGreaterThanOrEqual(300);
    expect(await probe.text(), path).not.toMatch(/authorization_servers|"issuer"|token_endpoint/);
  }
});
