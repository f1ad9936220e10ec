import { handleToolListRequest } from "@/lib/server/agent/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(req: Request): Promise<Response> {
  return handleToolListRequest(req);
}
