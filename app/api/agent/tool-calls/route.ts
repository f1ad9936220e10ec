import { handleToolCallRequest } from "@/lib/server/agent/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function POST(req: Request): Promise<Response> {
  return handleToolCallRequest(req);
}
