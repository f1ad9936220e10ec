import { Agent, request } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, test } from "vitest";
import { createAppServer } from "./http-server";

const servers: { close: () => void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

function get(port: number, agent: Agent) {
  return new Promise<{ status: number; reused: boolean; keepAlive?: string }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: "/", agent }, (res) => {
      res.resume();
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          reused: req.reusedSocket,
          keepAlive: String(res.headers["keep-alive"]),
        }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

// Node's default closes an idle connection after 5 s (plus a 1 s grace on Node 20); a client reusing it then
// gets ECONNRESET (CI run 54). Clients take the advertised timeout as their own limit.
test("an idle keep-alive connection is still served after Node's 5 s default", async () => {
  let served = 0;
  const server = createAppServer((_req, res) => {
    served += 1;
    res.end("ok");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  servers.push({ close: () => (agent.destroy(), server.closeAllConnections(), server.close()) });
  const { port } = server.address() as AddressInfo;

  let closedByServer = false;
  server.on("connection", (socket) => socket.on("close", () => (closedByServer = true)));
  expect(await get(port, agent)).toMatchObject({ status: 200, reused: false, keepAlive: "timeout=65" });
  await new Promise((r) => setTimeout(r, 6_500));
  expect(closedByServer).toBe(false);
  const second = await get(port, agent);
  expect(second).toMatchObject({ status: 200, reused: true });
  expect(served).toBe(2);
}, 15_000);
