// npx tsx examples/vercel-ai/main.ts "My order ORD-1001 arrived broken"
// npx tsx examples/vercel-ai/main.ts --scripted "My order ORD-1001 arrived broken"   (no provider, no key)
// The agent works with any AI SDK model. This runner does not pin a provider package: install the one you
// use (e.g. `npm i @ai-sdk/anthropic`) and name it in AI_SDK_PROVIDER_MODULE, with AI_SDK_MODEL (default
// claude-sonnet-4-6 for @ai-sdk/anthropic, gpt-5.4-mini for @ai-sdk/openai) and that provider's API key.
// With --scripted the model is the SDK's MockLanguageModelV4 playing the scripted conversation.
import type { LanguageModel } from "ai";
import { configFromEnv, defaultModels, isScripted, orderIn, printRun, userMessage } from "../shared/cli";
import { refundScript } from "../shared/scripted-vendor";
import { runVercelAgent } from "./agent";
import { scriptedModel } from "./scripted-model";

async function providerModel(): Promise<{ model: LanguageModel; id: string }> {
  const moduleName = process.env.AI_SDK_PROVIDER_MODULE;
  if (!moduleName) {
    console.error(
      'Set AI_SDK_PROVIDER_MODULE (an installed provider, e.g. "@ai-sdk/anthropic"), optionally AI_SDK_MODEL, plus that provider\'s API key — or add --scripted.',
    );
    process.exit(2);
  }
  const provider = (await import(moduleName)) as Record<string, (id: string) => LanguageModel>;
  const entry = Object.entries(provider).find(
    ([k, v]) => /^(anthropic|openai|google|mistral)$/.test(k) && typeof v === "function",
  );
  if (!entry) {
    console.error(`${moduleName} exports no default provider function`);
    process.exit(2);
  }
  const id = process.env.AI_SDK_MODEL ?? (entry[0] === "openai" ? defaultModels.openai : defaultModels.anthropic);
  return { model: entry[1](id), id };
}

const message = userMessage();
const { model, id } = isScripted()
  ? { model: scriptedModel(refundScript(orderIn(message))).model, id: "scripted" }
  : await providerModel();
const gateway = configFromEnv(id);
printRun(gateway.traceId, await runVercelAgent({ model, gateway, userMessage: message }));
