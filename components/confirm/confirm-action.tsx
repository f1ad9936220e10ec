import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/textarea";
import { CONFIRM_REASON_MAX, type ConfirmTexts } from "@/lib/schemas/customer-confirmation";
import type { Language } from "@/lib/i18n/locales";

// The confirm page's body (app/confirm/[token]): the exact hashed action — a heading naming it, the one-sentence
// confirmation, the labelled values (before → after where something changes) — and one form with Confirm and
// Decline. A plain HTML form posting to /api/confirm/<token>: it works on any phone, with or without JavaScript.

export function ConfirmAction({
  texts,
  token,
  proposalId,
  hash,
  lang,
}: {
  texts: ConfirmTexts;
  token: string;
  proposalId: string;
  hash: string;
  /** The page's language (the tenant's), carried to the result page the form lands on. */
  lang: Language;
}) {
  const hasBefore = texts.rows.some((r) => r.before !== null);
  return (
    <>
      <p className="muted">{texts.lead}</p>
      <h1 id="confirm-action" className="text-xl font-semibold">
        {texts.heading}
      </h1>
      {texts.sentence ? <p className="text-base">{texts.sentence}</p> : null}
      <table className="w-full text-sm" aria-labelledby="confirm-action">
        <thead>
          <tr>
            <th scope="col" className="text-left">
              {texts.columns.field}
            </th>
            {hasBefore ? (
              <th scope="col" className="text-left">
                {texts.columns.before}
              </th>
            ) : null}
            <th scope="col" className="text-left">
              {hasBefore ? texts.columns.after : texts.columns.value}
            </th>
          </tr>
        </thead>
        <tbody>
          {texts.rows.map((r) => (
            <tr key={r.label} data-changed={r.changed ? "true" : undefined}>
              <th scope="row" className="text-left font-normal text-muted-foreground">
                {r.label}
              </th>
              {hasBefore ? (
                <td className={r.changed ? "line-through opacity-70" : undefined}>{r.before ?? "—"}</td>
              ) : null}
              <td className={r.changed ? "font-semibold" : undefined}>{r.after ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted text-sm">{texts.expires}</p>
      <form method="post" action={`/api/confirm/${token}`} className="flex flex-col gap-3">
        <input type="hidden" name="proposal_id" value={proposalId} />
        <input type="hidden" name="hash" value={hash} />
        <input type="hidden" name="lang" value={lang} />
        <Button type="submit" name="decision" value="confirm" size="lg">
          {texts.confirm}
        </Button>
        <label htmlFor="confirm-reason" className="text-sm">
          {texts.reasonLabel}
        </label>
        <Textarea id="confirm-reason" name="reason" maxLength={CONFIRM_REASON_MAX} rows={3} />
        <Button type="submit" name="decision" value="decline" variant="outline" size="lg">
          {texts.decline}
        </Button>
      </form>
    </>
  );
}

/** A refused link or a recorded decision: one message, and the stable code for support. */
export function ConfirmNotice({ title, message, code }: { title: string; message: string; code?: string }) {
  return (
    <>
      <h1 className="text-xl font-semibold">{title}</h1>
      <p role="status">{message}</p>
      {code ? (
        <p className="muted text-sm" data-code={code}>
          {code}
        </p>
      ) : null}
    </>
  );
}
