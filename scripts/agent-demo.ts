// npm run agent:demo [-- --base-url http://localhost:3000] [--tenant tienda-es] [--order ORD-1001]
//                     [--address-order ORD-1002] [--cancel-order ORD-3017] [--new-email ana@example.test]
//                     [--refund-only]
// (the default base URL follows PORT, as `npm start` does: PORT=3100 npm run agent:demo)
//
// Drives the agent gateway the way a careful harness would, one of each kind, each conversation its own trace:
// 1. A refund: it lists the tools it may call, tries a hallucinated tool name, reads the structured `unknown_tool`
//    answer and recovers with a listed tool (`closest` is null here: search_invoices is close to no tool), looks up
//    an order, prepares a refund and prints the proposal that now awaits a human.
// 2. An address change: the same customer moved; it looks up their orders, picks one that has not shipped and
//    prepares the change (prepare_address_change), then reads its status with get_action_status.
// 3. A cancellation: another customer (the tenant's last) wants to cancel an order; it looks up their orders, picks
//    one that has not shipped and is paid in full, and prepares the cancellation (prepare_order_cancellation) with
//    the refund the server derives.
// 4. A contact change: the first customer has a new e-mail address; it prepares the change of their own address
//    (prepare_contact_change: the server takes whose from the end-user token, never from the model) and reads its
//    status with get_action_status.
// 2, 3 and 4 are carried out by the tenant's action endpoint once approved: `npm start` points it at the sandbox shop.
// Without an endpoint (or without the tools on the key) they are skipped with the reason, and the exit stays 0.
// Needs a running server with the demo data (npm start). Credentials come from demoCredentials().
import { randomBytes } from "node:crypto";
import { customerId, demoCredentials, demoNewAddresses, demoTenants } from "./lib/demo-data";
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

/** One conversation with one customer: one W3C trace, so every call lands in the same audit trace and budget. */
function conversation(endUserToken: string) {
  const traceId = randomBytes(16).toString("hex");
  const headers = {
    "content-type": "application/json",
    authorization: `Bearer ${agent!.key}`,
    "x-end-user-token": endUserToken,
    traceparent: `00-${traceId}-${randomBytes(8).toString("hex")}-01`,
    "x-agent-model": "agent-demo (scripted)",
    "x-agent-prompt-version": "agent-demo-1",
  };
  return { traceId, headers };
}
type Conversation = ReturnType<typeof conversation>;
const { traceId, headers } = conversation(customer.endUserToken);

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

async function callTool(name: string, input: Record<string, unknown>, withHeaders = headers): Promise<Content> {
  const id = `toolu_demo_${step}`;
  console.log(`   → tool_use ${name} ${JSON.stringify(input)}`);
  const res = await fetch(`${baseUrl}/api/agent/tool-calls`, {
    method: "POST",
    headers: withHeaders,
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

if (argv.includes("--refund-only")) process.exit(0);

// ——— The kinds the shop carries out (docs/action-kinds.md) ———
type Address = { name: string; line1: string; line2: string | null; city: string; postalCode: string } & {
  region: string | null;
  country: string;
};
type Money = { minor: number; currency: string };
const money = (m: Money) => {
  const f = new Intl.NumberFormat("en", { style: "currency", currency: m.currency });
  return `${f.format(m.minor / 10 ** (f.resolvedOptions().maximumFractionDigits ?? 2))} (${m.minor} minor units)`;
};
const line = (a: Address | null) =>
  a
    ? [a.name, a.line1, a.line2, `${a.postalCode} ${a.city}`.trim(), a.region, a.country].filter(Boolean).join(", ")
    : "(none on record)";

/** Why a kind's tool is not there for this key (null: it is listed). */
const notListed = (tool: string) =>
  toolNames.includes(tool)
    ? null
    : `this agent key may not call ${tool} (a demo database from before the tool existed: \`npm run demo:reset\`, or allow it in Admin → Channels)`;
/** Why a kind cannot be carried out here, from its prepare answer (null: go on). */
const notConnected = (answer: Content) =>
  answer.error?.reason === "action_endpoint_not_configured"
    ? "this tenant has no action endpoint to carry it out (`npm start` points it at the sandbox shop unless --no-shop)"
    : null;

/** The first of `candidates` that `fits` what lookup_order answers (an agent looks before it asks); null: none. */
async function pickOrder(
  candidates: string[],
  fits: (order: Record<string, unknown>) => boolean,
  c: Conversation,
): Promise<string | null> {
  for (const id of candidates) {
    const found = await callTool("lookup_order", { order_id: id }, c.headers);
    if (found.code === "ok" && fits(found.result!)) return id;
  }
  return null;
}

/** The kind's prepare answer awaits a reviewer: check it with get_action_status and print it. */
async function awaiting(title: string, answer: Content, c: Conversation, fields: [string, string][]) {
  const r = answer.result!;
  say("Check its status with get_action_status (never re-submit)");
  await callTool("get_action_status", { proposal_id: r.proposal_id, wait_seconds: null }, c.headers);
  console.log(`\n${title}`);
  console.log(`   id:        ${String(r.proposal_id)}`);
  for (const [name, value] of fields) console.log(`   ${`${name}:`.padEnd(10)} ${value}`);
  console.log(`   reviewers: ${String(r.approvals_required)}`);
  console.log(`   traceId:   ${answer.traceId}`);
}

/** Exits 1 unless the answer is approval_required (or a reason to skip, printed). Answers whether to go on. */
function preparedOrSkipped(answer: Content): boolean {
  const why = notConnected(answer);
  if (why) {
    console.log(`   skipped: ${why}`);
    return false;
  }
  if (answer.code !== "approval_required") {
    console.error(`   ✗ expected approval_required, got ${answer.code}: ${answer.error?.message ?? ""}`);
    process.exit(1);
  }
  return true;
}

const demoTenant = demoTenants.find((t) => t.slug === tenant.slug)!;
const nameOf = (id: string) => demoTenant.customers.find((c) => customerId(tenant.slug, c.key) === id)?.name ?? id;
const notShipped = (o: Record<string, unknown>) => o.fulfilment === "unfulfilled" && o.status !== "cancelled";
const orderFlag = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : null;
};

// ——— 2. An address change: the same customer has moved (a new conversation) ———
const moving = conversation(customer.endUserToken);
console.log(`\n— A second conversation (trace ${moving.traceId}): ${nameOf(customer.id)} has moved —`);
say("Find an order of theirs that has not shipped yet");
const addressSkipped = notListed("prepare_address_change");
const addressOrder = addressSkipped
  ? null
  : (orderFlag("address-order") ??
    (await pickOrder([...customer.orderIds.filter((o) => o !== orderId), orderId], notShipped, moving)));
if (addressSkipped) console.log(`   skipped: ${addressSkipped}`);
else if (!addressOrder) console.log("   none: every order of theirs has shipped or was cancelled");
else {
  say(`Prepare the change of ${addressOrder}'s shipping address with the address they gave`);
  let answer: Content | null = null;
  for (const address of demoNewAddresses[tenant.slug] ?? []) {
    answer = await callTool(
      "prepare_address_change",
      { order_id: addressOrder, new_address: { name: nameOf(customer.id), ...address } },
      moving.headers,
    );
    // Already shipping there (an earlier run's change was carried out): they give their other address.
    if (answer.error?.reason !== "address_unchanged") break;
  }
  if (answer && preparedOrSkipped(answer)) {
    const r = answer.result!;
    // Within one country only the customer confirms (on their one-time link); across a border a reviewer too.
    const link = typeof r.confirm_url === "string" ? r.confirm_url : null;
    await awaiting(
      link
        ? "Address change awaiting the customer's confirmation on their link (the shop changes it once confirmed):"
        : "Address change awaiting a human reviewer (the shop changes it once approved):",
      answer,
      moving,
      [
        ["order", String(r.order_id)],
        ["from", line(r.before as Address | null)],
        ["to", line(r.after as Address)],
        ...(link ? ([["customer's link", link]] as [string, string][]) : []),
      ],
    );
  }
}

// ——— 3. A cancellation: another customer (the tenant's last), a new conversation ———
const cancelFlag = orderFlag("cancel-order");
const other = cancelFlag
  ? tenant.customers.find((c) => c.orderIds.includes(cancelFlag))
  : tenant.customers[tenant.customers.length - 1];
if (!other) {
  console.error(`agent:demo: no demo customer of ${tenant.slug} has order ${cancelFlag}`);
  process.exit(2);
}
const cancelling = conversation(other.endUserToken);
console.log(`\n— A third conversation (trace ${cancelling.traceId}): ${nameOf(other.id)} wants to cancel an order —`);
say("Find an order of theirs that has not shipped, is paid and has no refund under way");
const cancelSkipped = notListed("prepare_order_cancellation");
const cancelOrder = cancelSkipped
  ? null
  : (cancelFlag ??
    (await pickOrder(
      other.orderIds,
      (o) =>
        notShipped(o) &&
        o.status === "paid" &&
        (o.refundable as Money).minor > 0 &&
        (o.open_refund_proposals as unknown[]).length === 0,
      cancelling,
    )));
if (cancelSkipped) console.log(`   skipped: ${cancelSkipped}`);
else if (!cancelOrder) console.log("   none: every order of theirs has shipped, was cancelled or is being refunded");
else {
  say(`Prepare the cancellation of ${cancelOrder} (the server derives the refund that goes with it)`);
  const answer = await callTool(
    "prepare_order_cancellation",
    { order_id: cancelOrder, reason: "changed_mind" },
    cancelling.headers,
  );
  if (preparedOrSkipped(answer)) {
    const r = answer.result!;
    const refund = r.refund as { amount: Money; recipient: { kind: string; display: string; holder: string } } | null;
    await awaiting(
      "Cancellation awaiting a human reviewer (once approved the shop cancels it, then the refund is paid):",
      answer,
      cancelling,
      [
        ["order", `${String(r.order_id)}, total ${money(r.total as Money)}`],
        [
          "refund",
          refund
            ? `${money(refund.amount)} to ${refund.recipient.kind}, ${refund.recipient.display}, ${refund.recipient.holder}`
            : "none (nothing left to refund)",
        ],
      ],
    );
  }
}

// ——— 4. A contact change: the first customer has a new e-mail address (a new conversation) ———
/** The addresses they give: the second when the first is already on record (an earlier run's change was carried out). */
const newEmails = (email: string) => {
  const at = email.lastIndexOf("@");
  return [".new", ".other"].map((tag) => `${email.slice(0, at)}${tag}${email.slice(at)}`);
};
const seededEmail = demoTenant.customers.find((c) => customerId(tenant.slug, c.key) === customer.id)!.email;
const emailFlag = orderFlag("new-email");
const recontact = conversation(customer.endUserToken);
console.log(
  `\n— A fourth conversation (trace ${recontact.traceId}): ${nameOf(customer.id)} has a new e-mail address —`,
);
const contactSkipped = notListed("prepare_contact_change");
if (contactSkipped) console.log(`   skipped: ${contactSkipped}`);
else {
  say("Prepare the change of their e-mail address with the one they gave (whose: the signed-in customer's)");
  let answer: Content | null = null;
  for (const value of emailFlag ? [emailFlag] : newEmails(seededEmail)) {
    answer = await callTool("prepare_contact_change", { field: "email", new_value: value }, recontact.headers);
    // Already on record (an earlier run's change was carried out): they give their other address.
    if (answer.error?.reason !== "value_unchanged") break;
  }
  if (answer && preparedOrSkipped(answer)) {
    const r = answer.result!;
    await awaiting("Contact change awaiting a human reviewer (the shop changes it once approved):", answer, recontact, [
      ["customer", `${nameOf(String(r.customer_id))} (${String(r.customer_id)})`],
      ["field", String(r.field)],
      ["from", typeof r.before === "string" ? `${r.before} (the value on record, masked)` : "(none on record)"],
      ["to", String(r.after)],
    ]);
  }
}
