import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { createApprovalOptions } from "@/lib/server/passkeys/create-approval-options";

export const dynamic = "force-dynamic";

export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, request, { params }) =>
  createApprovalOptions(actor, { ...(await jsonBody(request)), proposalId: (await params).id }),
);
