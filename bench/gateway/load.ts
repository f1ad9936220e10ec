// Gateway load beside another bench (bench:audit --with-load): the product's route handler for
// /api/agent/tool-calls on node:http, driven by autocannon (prepare_refund for fresh orders, closed loop) against
// an existing database, until SIGTERM. Prints "ready" once loading, and its throughput when stopped.
//   node --conditions=react-server --import tsx bench/gateway/load.ts --database-url URL [--connections 8]
import autocannon from "autocannon";
import { agentKey, customerId, mintEndUserToken } from "../../scripts/lib/demo-data";
import {
  TENANT,
  adaptRouteHandler,
  addBenchOrders,
  benchOrder,
  isApprovalRequired,
  liftWindowBudgets,
  listen,
  toolCallBody,
  urlOf,
} from "./shared";

const argv = process.argv.slice(2);
const flag = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const url = flag("database-url");
if (!url) throw new Error("--database-url is required");
const connections = Number(flag("connections") ?? 8);
const ORDERS = 50_000;

await liftWindowBudgets(url);
await addBenchOrders(url, ORDERS, "LOAD");
process.env.DATABASE_URL = url;
process.env.APP_MODE = "demo";
process.env.PAYMENT_PROVIDER_LIVE_READS = "0"; // no payment provider runs in this bench: read the stored rows
process.env.LOG_LEVEL = "warn";
const { POST } = await import("../../app/api/agent/tool-calls/route");
const http = await listen(adaptRouteHandler(POST));
const key = agentKey(TENANT, "web_support");
const token = await mintEndUserToken(TENANT, "web_support", customerId(TENANT, "ana"));

let n = 0;
let errors = 0;
const started = Date.now();
const result = await new Promise<autocannon.Result>((resolve, reject) => {
  const instance = autocannon(
    {
      url: urlOf(http),
      connections,
      duration: 3600,
      timeout: 30,
      requests: [
        {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${key}`, "x-end-user-token": token },
          setupRequest: (req) => ({ ...req, body: toolCallBody(benchOrder(n % ORDERS, "LOAD"), n++) }),
          onResponse: (status, text) => {
            if (status !== 200 || !isApprovalRequired(text)) errors += 1;
          },
        },
      ],
    },
    (error, r) => (error ? reject(error as Error) : resolve(r)),
  );
  process.once("SIGTERM", () => instance.stop());
  console.log("ready");
});
const seconds = (Date.now() - started) / 1000;
console.log(
  `gateway load: ${connections} connections, ${(result.requests.total / seconds).toFixed(0)} prepare_refund/s over ${seconds.toFixed(0)} s, ${errors + result.errors} errors`,
);
http.close();
const g = globalThis as unknown as { prisma?: { $disconnect(): Promise<void> } };
await g.prisma?.$disconnect();
process.exit(0);
