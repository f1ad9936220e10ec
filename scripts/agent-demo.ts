// npm run agent:demo [-- --base-url http://localhost:3000] [--tenant tienda-es] [--order ORD-1001]
// (the default base URL follows PORT, as `npm start` does: PORT=3100 npm run agent:demo)
//
// Drives the agent gateway the way a careful harness would: it lists the tools it may call, tries a
// hallucinated tool name, reads the structured `unknown_tool` answer and recovers with a listed tool
// (`closest` is null here: search_invoices is close to no tool), looks up an order, prepares a refund and
// prints the proposal that now awaits a human.
// Needs a running server with the demo data (npm start). Credentials come from demoCredentials().
import { randomBytes } from "node:crypto";
import { demoCredentials } from "./lib/demo-data";
import { demoBaseUrl } from "./lib/demo-base-url";

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : fallback;
};
const baseUrl = demoBaseUrl(argv, process.env);
const tenantSlug = flag("tenant", "tienda-es");

type Content = {
  code: string;
  result?: Record<string, unknown>;
  error?: Record<string, unknown> & { message: string };
  traceId: string;
};

const creds = await demoCredentials();
const tenant = creds.tenants.find((t) => t.slug === tenantSlug);
const agent = tenant?.agents.find((a) => a.channel === "web_support");
const customer = tenant?.customers[0];
if (!tenant || !agent || !customer) {
  console.error(`agent:demo: no demo tenant "${tenantSlug}" with a web_support agent and a customer`);
  process.exit(2);
}
const orderId = flag("order", customer.orderIds[0] ?? "ORD-1001");

// One W3C trace for the whole conversation: every call lands in the same audit trace and budget.
const traceId = randomBytes(16).toString("hex");
const traceparent = `00-${traceId}-${randomBytes(8).toString("hex")}-01`;
const headers = {
  "content-type": "application/json",
  authorization: `Bearer ${agent.key}`,
  "x-end-user-token": customer.endUserToken,
  traceparent,
  "x-agent-model": "agent-demo (scripted)",
  "x-agent-prompt-version": "agent-demo-1",
};

let step = 0;
const say = (title: string) => console.log(`\n${++step}. ${title}`);

async function reachable(): Promise<void> {
  try {
    await fetch(`${baseUrl}/api/agent/tools?format=anthropic`, { headers, signal: AbortSignal.timeout(5000) });
  } catch (error) {
    console.error(
      `agent:demo: the server at ${baseUrl} is not reachable (${error instanceof Error ? error.message : String(error)}).`,
    );
    console.error("Start it with `npm start` (or pass --base-url), then run `npm run agent:demo` again.");
    process.exit(1);
  }
}

async function callTool(name: string, input: Record<string, unknown>): Promise<Content> {
  const id = `toolu_demo_${step}`;
  console.log(`   → tool_use ${name} ${JSON.stringify(input)}`);
  const res = await fetch(`${baseUrl}/api/agent/tool-calls`, {
    method: "POST",
    headers,
    body: JSON.stringify({ type: "tool_use", id, name, input }),
  });
  const text = await res.text();
  let body: { type?: string; is_error?: boolean; content?: string };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    console.error(`   ✗ HTTP ${res.status}: the answer is not JSON (is ${baseUrl} this project's server?)`);
    process.exit(1);
  }
  if (res.status === 401) {
    console.error("   ✗ 401: the demo agent key was refused. Is the server running on the demo data?");
    process.exit(1);
  }
  const content = JSON.parse(body.content ?? "{}") as Content;
  const detail = content.error ? content.error.message : JSON.stringify(content.result).slice(0, 160);
  console.log(`   ← ${content.code}${body.is_error ? " (is_error)" : ""}: ${detail}`);
  return content;
}

console.log(`agent:demo against ${baseUrl}: tenant ${tenant.slug}, customer ${customer.id}, trace ${traceId}`);
await reachable();

say("List the tools this key may call");
const list = (await (await fetch(`${baseUrl}/api/agent/tools?format=anthropic`, { headers })).json()) as {
  tools?: { name: string }[];
};
const toolNames = (list.tools ?? []).map((t) => t.name);
console.log(`   tools: ${toolNames.join(", ")}`);

say("The model hallucinates a tool: search_invoices");
const wrong = await callTool("search_invoices", { query: `order ${orderId}` });
if (wrong.code !== "unknown_tool") {
  console.error(`   ✗ expected unknown_tool, got ${wrong.code}`);
  process.exit(1);
}
const available = (wrong.error?.available_tools as string[] | undefined) ?? [];
console.log(
  `   the harness reads the error: available = [${available.join(", ")}], closest = ${String(wrong.error?.closest)}`,
);
const recovery = available.includes("lookup_order") ? "lookup_order" : String(wrong.error?.closest);

say(`Recover with a listed tool: ${recovery}`);
const order = await callTool(recovery, { order_id: orderId });
if (order.code !== "ok") {
  console.error(`   ✗ could not look up ${orderId}: ${order.code}`);
  process.exit(1);
}
const refundable = order.result?.refundable as { minor: number; currency: string } | undefined;
console.log(
  `   order ${orderId}: status ${String(order.result?.status)}, refundable ${refundable ? `${refundable.minor} ${refundable.currency} (minor units)` : "?"}`,
);

say("The model tries to set the amount itself (refused: the server derives it)");
const invented = await callTool("prepare_refund", { order_id: orderId, reason: "damaged_item", amount: 1 });
for (const p of (invented.error?.problems as { path: string; expected: string }[] | undefined) ?? [])
  console.log(`   problem: ${p.path} — expected ${p.expected}`);

say("Prepare the refund with only what the model can know");
const prepared = await callTool("prepare_refund", { order_id: orderId, reason: "damaged_item" });
if (prepared.code !== "approval_required") {
  console.error(`   ✗ expected approval_required, got ${prepared.code}: ${prepared.error?.message ?? ""}`);
  console.error(`   (another order of this customer: ${customer.orderIds.join(", ")}; pass --order)`);
  process.exit(1);
}
const p = prepared.result!;
const amount = p.amount as { minor: number; currency: string };
const recipient = p.recipient as { kind: string; display: string; holder: string };

say("Check its status (never re-submit)");
await callTool("get_refund_status", { proposal_id: p.proposal_id });

console.log("\nProposal awaiting a human reviewer:");
console.log(`   id:        ${String(p.proposal_id)}`);
console.log(`   hash:      ${String(p.hash)}`);
const fmt = new Intl.NumberFormat("en", { style: "currency", currency: amount.currency });
const decimals = fmt.resolvedOptions().maximumFractionDigits ?? 2;
console.log(
  `   amount:    ${amount.minor} ${amount.currency} (minor units) = ${fmt.format(amount.minor / 10 ** decimals)}`,
);
console.log(`   recipient: ${recipient.kind}, ${recipient.display}, ${recipient.holder}`);
console.log(`   expires:   ${String(p.expires_at)}`);
console.log(`   traceId:   ${prepared.traceId}`);
