import { actionOriginProblem, requestOrigin } from "@/lib/config/security-headers";
import { BODY_LIMITS, readCappedBody } from "@/lib/config/body-limits";
import { customerDecisionInput } from "@/lib/schemas/customer-confirmation";
import { recordCustomerDecision } from "@/lib/server/confirmations/record-customer-decision";
import { env } from "@/lib/server/env";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ token: string }> };

/**
 * POST /api/confirm/{token} — the confirm page's form (no staff session: the one-time token is the credential):
 * `proposal_id`, `hash` (what the page showed), `decision` (confirm | decline), `reason` (optional, ≤ 500) →
 * 303 to /confirm/result?outcome=confirmed|declined, or ?refused=<code> (link_unknown, link_used, link_expired,
 * link_other_proposal, proposal_changed, proposal_closed, invalid_request). Same-origin only, like a server action.
 */
export async function POST(request: Request, { params }: Params): Promise<Response> {
  const { token } = await params;
  const { host } = requestOrigin(request.headers, new URL(request.url), env().TRUST_PROXY);
  if (actionOriginProblem(request.method, request.headers.get("origin"), host))
    return Response.json(
      { code: "permission_denied", error: { message: "Cross-site request refused." } },
      { status: 403 },
    );
  const body = await readCappedBody(request, BODY_LIMITS.staffJson);
  const form = body.ok ? Object.fromEntries(new URLSearchParams(body.text)) : null;
  const parsed = customerDecisionInput.safeParse(form ?? {});
  const answer = parsed.success
    ? await recordCustomerDecision(token, parsed.data, request.headers.get("user-agent"))
    : ({ ok: false, code: "invalid_request" } as const);
  // The result page speaks the confirm page's language (the tenant's), when the form said which.
  const lang = parsed.success && parsed.data.lang ? `&lang=${parsed.data.lang}` : "";
  const to = (answer.ok ? `outcome=${answer.outcome}` : `refused=${answer.code}`) + lang;
  return new Response(null, {
    status: 303,
    headers: { location: `/confirm/result?${to}`, "cache-control": "no-store", "referrer-policy": "no-referrer" },
  });
}

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
