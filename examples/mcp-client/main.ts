// npx tsx examples/mcp-client/main.ts "My order ORD-1001 arrived broken"            (ANTHROPIC_API_KEY set)
// npx tsx examples/mcp-client/main.ts --scripted "My order ORD-1001 arrived broken" (no vendor key)
import Anthropic from "@anthropic-ai/sdk";
import { configFromEnv, defaultModels, isScripted, orderIn, printRun, requireEnv, userMessage } from "../shared/cli";
import { refundScript, startScriptedVendor } from "../shared/scripted-vendor";
import { runMcpAgent } from "./agent";

requireEnv("ANTHROPIC_API_KEY");
const message = userMessage();
const vendor = isScripted() ? await startScriptedVendor(refundScript(orderIn(message))) : null;
const model = vendor ? "scripted" : (process.env.ANTHROPIC_MODEL ?? defaultModels.anthropic);
const gateway = configFromEnv(model);
try {
  const anthropic = vendor
    ? new Anthropic({ apiKey: "scripted", baseURL: vendor.url, maxRetries: 0 })
    : new Anthropic();
  printRun(gateway.traceId, await runMcpAgent({ anthropic, gateway, model, userMessage: message }));
} finally {
  await vendor?.close();
}
