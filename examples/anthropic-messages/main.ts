// npx tsx examples/anthropic-messages/main.ts "My order ORD-1001 arrived broken"
import Anthropic from "@anthropic-ai/sdk";
import { configFromEnv, requireEnv, userMessage } from "../shared/cli";
import { runAnthropicAgent } from "./agent";

requireEnv("ANTHROPIC_API_KEY");
const model = process.env.ANTHROPIC_MODEL ?? "claude-sonnet-4-5";
const gateway = configFromEnv(model);
const run = await runAnthropicAgent({ client: new Anthropic(), gateway, model, userMessage: userMessage() });
console.log(JSON.stringify({ traceId: gateway.traceId, calls: run.calls, stoppedBecause: run.stoppedBecause, nudged: run.nudged }, null, 2));
console.log(`\n${run.text}`);
