// npx tsx examples/vercel-ai/main.ts "My order ORD-1001 arrived broken"
// The agent works with any AI SDK model. This runner does not pin a provider package: install the one you
// use (e.g. `npm i @ai-sdk/anthropic`) and name it in AI_SDK_PROVIDER_MODULE, with AI_SDK_MODEL and that
// provider's API key (ANTHROPIC_API_KEY, OPENAI_API_KEY, …).
import type { LanguageModel } from "ai";
import { configFromEnv, userMessage } from "../shared/cli";
import { runVercelAgent } from "./agent";

const moduleName = process.env.AI_SDK_PROVIDER_MODULE;
const modelId = process.env.AI_SDK_MODEL;
if (!moduleName || !modelId) {
  console.error(
    'Set AI_SDK_PROVIDER_MODULE (an installed provider, e.g. "@ai-sdk/anthropic") and AI_SDK_MODEL (e.g. "claude-sonnet-4-5"), plus that provider\'s API key. The scripted run is in tests/integration/examples.test.ts.',
  );
  process.exit(2);
}
const provider = (await import(moduleName)) as Record<string, (id: string) => LanguageModel>;
const factory = Object.entries(provider).find(([k, v]) => /^(anthropic|openai|google|mistral)$/.test(k) && typeof v === "function")?.[1];
if (!factory) {
  console.error(`${moduleName} exports no default provider function`);
  process.exit(2);
}
const gateway = configFromEnv(modelId);
const run = await runVercelAgent({ model: factory(modelId), gateway, userMessage: userMessage() });
console.log(JSON.stringify({ traceId: gateway.traceId, calls: run.calls, stoppedBecause: run.stoppedBecause, nudged: run.nudged }, null, 2));
console.log(`\n${run.text}`);
