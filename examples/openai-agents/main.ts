// npx tsx examples/openai-agents/main.ts "My order ORD-1001 arrived broken"            (OPENAI_API_KEY set)
// npx tsx examples/openai-agents/main.ts --scripted "My order ORD-1001 arrived broken" (no vendor key)
import { OpenAIProvider } from "@openai/agents";
import { configFromEnv, defaultModels, isScripted, orderIn, printRun, requireEnv, userMessage } from "../shared/cli";
import { refundScript, startScriptedVendor } from "../shared/scripted-vendor";
import { runOpenAIAgent } from "./agent";

requireEnv("OPENAI_API_KEY");
const message = userMessage();
const vendor = isScripted() ? await startScriptedVendor(refundScript(orderIn(message))) : null;
const model = vendor ? "scripted" : (process.env.OPENAI_MODEL ?? defaultModels.openai);
const gateway = configFromEnv(model);
try {
  const provider = vendor
    ? new OpenAIProvider({ apiKey: "scripted", baseURL: `${vendor.url}/v1`, useResponses: true })
    : new OpenAIProvider({ useResponses: true });
  printRun(gateway.traceId, await runOpenAIAgent({ provider, gateway, model, userMessage: message }));
} finally {
  await vendor?.close();
}
