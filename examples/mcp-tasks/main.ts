// npx tsx examples/mcp-tasks/main.ts "My order ORD-1001 arrived broken"            (ANTHROPIC_API_KEY set)
// npx tsx examples/mcp-tasks/main.ts --scripted "My order ORD-1001 arrived broken" (no vendor key)
// The refund is prepared as an MCP task: approve it in the dashboard (/queue) and the run ends with the outcome.
import Anthropic from "@anthropic-ai/sdk";
import { configFromEnv, defaultModels, isScripted, orderIn, requireEnv, userMessage } from "../shared/cli";
import { recipeScript } from "../shared/recipes";
import { startScriptedVendor } from "../shared/scripted-vendor";
import { describeOutcome, runMcpTasksAgent } from "./agent";

requireEnv("ANTHROPIC_API_KEY");
const message = userMessage();
const vendor = isScripted() ? await startScriptedVendor(recipeScript(orderIn(message))) : null;
const model = vendor ? "scripted" : (process.env.ANTHROPIC_MODEL ?? defaultModels.anthropic);
const gateway = configFromEnv(model);
try {
  const anthropic = vendor
    ? new Anthropic({ apiKey: "scripted", baseURL: vendor.url, maxRetries: 0 })
    : new Anthropic();
  const run = await runMcpTasksAgent({
    anthropic,
    gateway,
    model,
    userMessage: message,
    onCustomerMessage: (text) => console.log(`customer sees: ${text}`),
  });
  console.log(JSON.stringify({ traceId: gateway.traceId, calls: run.calls, taskIds: run.taskIds }, null, 2));
  console.log(`reviewer saw and decided: ${describeOutcome(run.outcome)}`);
} finally {
  await vendor?.close();
}
