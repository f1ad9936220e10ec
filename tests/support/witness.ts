// A real `npm run witness` process for the audit integration tests and the Admin witnesses spec: its own key
// and state file in `dir`, trusting the given log vkeys; resolves once it prints its vkey and answers HTTP.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { findFreePort } from "../../scripts/lib/embedded-postgres";

export type RunningWitness = { name: string; vkey: string; url: string; child: ChildProcess };

export async function startWitness(name: string, dir: string, logVkeys: readonly string[]): Promise<RunningWitness> {
  const port = await findFreePort();
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "scripts/witness.ts",
      "--name",
      name,
      "--port",
      String(port),
      "--state",
      join(dir, `${name}.json`),
      ...logVkeys.flatMap((v) => ["--log-vkey", v]),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`witness ${name} exited (${code})`)));
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 50; i++) {
    try {
      await fetch(`${url}/none`);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { name, vkey: (JSON.parse(first) as { vkey: string }).vkey, url, child };
}
