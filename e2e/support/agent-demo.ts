import { expect } from "@playwright/test";
import { spawnSync } from "node:child_process";

const port = Number(process.env.E2E_PORT ?? 3100);
export const baseURL = `http://localhost:${port}`;

/** Runs the real `npm run agent:demo` against the server under test; returns the proposal id it made. */
export function runAgentDemo(args: string[] = []): string {
  const res = spawnSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "scripts/agent-demo.ts", "--base-url", baseURL, ...args],
    {
      encoding: "utf8",
      timeout: 60_000,
    },
  );
  const output = `${res.stdout}\n${res.stderr}`;
  expect(res.status, output).toBe(0);
  const id = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(
    output.slice(output.lastIndexOf("approval_required")),
  )?.[0];
  expect(id, output).toBeTruthy();
  return id!;
}
