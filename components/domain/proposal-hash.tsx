"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { CopyButton } from "@/components/ui/copy-button";
import { ClientButton } from "@/components/ui/client-button";

/** A proposal hash in short form, the full value on demand, and a copy button. */
export function ProposalHash({ hash }: { hash: string }) {
  const t = useTranslations("proposal");
  const [full, setFull] = useState(false);
  return (
    <span className="hash inline-flex flex-wrap items-center gap-1">
      <code className="mono break-all" data-testid="proposal-hash" data-hash={hash}>
        {full ? hash : `${hash.slice(0, 12)}…`}
      </code>
      <CopyButton value={hash} label={t("hash")} />
      <ClientButton type="button" className="link text-sm" onClick={() => setFull((v) => !v)} aria-expanded={full}>
        {full ? t("hashShort") : t("hashFull")}
      </ClientButton>
    </span>
  );
}
