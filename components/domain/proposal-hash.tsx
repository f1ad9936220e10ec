"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";

/** A proposal hash in short form, the full value on demand. */
export function ProposalHash({ hash }: { hash: string }) {
  const t = useTranslations("proposal");
  const [full, setFull] = useState(false);
  return (
    <span className="hash">
      <code className="mono" data-testid="proposal-hash" data-hash={hash}>
        {full ? hash : `${hash.slice(0, 12)}…`}
      </code>{" "}
      <button type="button" className="link" onClick={() => setFull((v) => !v)} aria-expanded={full}>
        {full ? t("hashShort") : t("hashFull")}
      </button>
    </span>
  );
}
