// npx tsx examples/vercel-ai-approval/main.ts --scripted "My order ORD-1001 arrived broken"  (no model key)
// Approve (or reject) the refund in the dashboard (/queue) while it waits: the run then ends with the outcome.
// Without --scripted, pass any AI SDK model in your own code (runVercelApprovalAgent takes a LanguageModel).
import { configFromEnv, orderIn, userMessage } from "../shared/cli";
import { recipeScript } from "../shared/recipes";
import { scriptedModel } from "../vercel-ai/scripted-model";
import { runVercelApprovalAgent } from "./agent";

if (!process.argv.includes("--scripted")) {
  console.error("This recipe runs with --scripted; in your code, give runVercelApprovalAgent any AI SDK model.");
  process.exit(2);
}
const message = userMessage();
const gateway = configFromEnv("scripted");
const run = await runVercelApprovalAgent({
  model: scriptedModel(recipeScript(orderIn(message))).model,
  gateway,
  userMessage: message,
  onCustomerMessage: (text) => console.log(`customer sees: ${text}`),
});
console.log(JSON.stringify({ traceId: gateway.traceId, reviewed: run.reviewed, decisions: run.decisions }, null, 2));
console.log(`outcome: ${JSON.stringify(run.outcome)}`);
