// npm run demo:credentials: the JSON a person or a script drives the demo with (docs/design.md).
// Only prints data of the public, deterministic demo; end-user tokens are minted fresh. When a demo is running
// (npm start wrote .data/demo-payment-provider.json), each tenant also gets that run's sandbox URL and test key.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { demoCredentials } from "./lib/demo-data";

function runningSandbox(): { url: string; apiKey: string } | undefined {
  try {
    const parsed = JSON.parse(readFileSync(join(process.cwd(), ".data", "demo-payment-provider.json"), "utf8")) as {
      url?: unknown;
      apiKey?: unknown;
    };
    return typeof parsed.url === "string" && typeof parsed.apiKey === "string"
      ? { url: parsed.url, apiKey: parsed.apiKey }
      : undefined;
  } catch {
    return undefined;
  }
}

process.stdout.write(JSON.stringify(await demoCredentials(runningSandbox()), null, 2) + "\n");
