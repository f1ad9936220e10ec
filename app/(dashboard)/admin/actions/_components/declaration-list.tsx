"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { Section } from "@/components/page/section";
import { Notice } from "@/components/forms/notice";
import { declarationsQuery } from "./declaration";
import { DeclarationTable } from "./declaration-table";
import { PendingDeclaration } from "./pending-declaration";

/**
 * The declarations, read from GET /api/admin/actions: the table of every name's versions, then each pending version
 * with everything it declares, for the second admin to approve or reject (or its proposer to cancel).
 */
export function DeclarationList() {
  const t = useTranslations("adminActions");
  const list = useQuery(declarationsQuery());
  const [done, setDone] = useState<string | null>(null);
  if (list.isPending) return <p className="muted">{t("loading")}</p>;
  if (list.isError)
    return (
      <p className="error-box" role="alert">
        {list.error.message}
      </p>
    );
  const pending = list.data.filter((r) => r.status === "pending");
  return (
    <>
      <Notice>{done}</Notice>
      <DeclarationTable rows={list.data} onDone={setDone} />
      {pending.length > 0 ? (
        <Section titleId="declarations-pending-title" title={t("pendingTitle")} className="stack">
          {pending.map((row) => (
            <PendingDeclaration key={row.id} row={row} onDone={setDone} />
          ))}
        </Section>
      ) : null}
    </>
  );
}
