// Run by `npm start` in demo mode, before the app starts (so nothing races it): tops each demo tenant up
// to a few proposals waiting for review, made through the real agent gateway (scripts/lib/demo-pending.ts).
// Needs the app's environment (DATABASE_URL and the demo secrets), which start.ts passes.
import { POST as toolCallsPOST } from "../app/api/agent/tool-calls/route";
import { topUpDemoProposals } from "./lib/demo-pending";
import { prismaFor } from "./lib/prisma";

const url = process.env.DATABASE_URL;
if (!url) {
  console.error("demo-pending: DATABASE_URL is not set");
  process.exit(1);
}
const prisma = prismaFor(url);
try {
  const created = await topUpDemoProposals(
    prisma,
    async (body, headers) => {
      const res = await toolCallsPOST(
        new Request("http://localhost/api/agent/tool-calls", {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify(body),
        }),
      );
      const parsed = (await res.json()) as { content?: string; code?: string };
      return parsed.content
        ? (JSON.parse(parsed.content) as { code: string })
        : { code: parsed.code ?? "internal_error" };
    },
    (msg) => console.log(msg),
  );
  console.log(
    `demo: proposals waiting for review added: ${Object.entries(created)
      .map(([t, n]) => `${t} ${n}`)
      .join(", ")}`,
  );
} finally {
  await prisma.$disconnect();
}
process.exit(0);
