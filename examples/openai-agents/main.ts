// npx tsx examples/openai-agents/main.ts "My order ORD-1001 arrived broken"
import { OpenAIProvider } from "@openai/agents";
import { configFromEnv, requireEnv, userMessage } from "../shared/cli";
import { runOpenAIAgent } from "./agent";

requireEnv("OPENAI_API_KEY");
const model = process.env.OPENAI_MODEL ?? "gpt-4.1-mini";
const gateway = configFromEnv(model);
const run = await runOpenAIAgent({ provider: new OpenAIProvider({ useResponses: true }), gateway, model, userMessage: userMessage() });
console.log(JSON.stringify({ traceId: gateway.traceId, calls: run.calls, stoppedBecause: run.stoppedBecause, nudged: run.nudged }, null, 2));
console.log(`\n${run.text}`);
