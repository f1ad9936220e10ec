// The sandbox shop as a real process for integration tests (its own database on the test server): started with the
// signing secret its operator configured, stopped with SIGTERM (SIGKILL after 10 s).
import { spawn, type ChildProcess } from "node:child_process";

export type ShopProcess = { stop(): Promise<void> };

export async function startShopProcess(opts: {
  port: number;
  databaseUrl: string;
  signingSecret: string;
  controlToken: string;
}): Promise<ShopProcess> {
  let output = "";
  const child: ChildProcess = spawn(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      "scripts/shop-sandbox.ts",
      "--port",
      String(opts.port),
      "--database-url",
      opts.databaseUrl,
      "--signing-secret",
      opts.signingSecret,
      "--control-token",
      opts.controlToken,
    ],
    { cwd: process.cwd(), stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, DATABASE_URL: "" } },
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`shop did not start in 30 s:\n${output}`)), 30_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening on http:\/\/127\.0\.0\.1:\d+/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`shop exited with ${code}:\n${output}`));
    });
  });
  return {
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
