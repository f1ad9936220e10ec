"use client";

import { useActionState } from "react";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { verifyOwnLogNow, type OwnLogResult } from "../actions";
import { useClock } from "@/components/ui/use-clock";

/** "Verify this tenant's log now": the result of walking the viewer's own tenant log, said in place. */
export function VerifyOwnLog() {
  const t = useTranslations("audit");
  const clock = useClock();
  const [result, run, pending] = useActionState<OwnLogResult>(verifyOwnLogNow, null);
  const time = result ? clock.instant(new Date(result.checkedAt)) : "";
  return (
    <form action={run} className="grid gap-2">
      <div>
        <Button type="submit" variant="outline" disabled={pending}>
          {pending ? t("verifying") : t("verifyOwn")}
        </Button>
      </div>
      <p aria-live="polite" data-own-log={result ? (result.ok ? "ok" : "broken") : undefined} className="m-0 text-sm">
        {result
          ? result.ok
            ? t("ownLogOk", { time, events: result.events, checkpoints: result.checkpoints, pending: result.pending })
            : t("ownLogBroken", { time, seq: result.seq, problem: result.problem })
          : null}
      </p>
    </form>
  );
}
