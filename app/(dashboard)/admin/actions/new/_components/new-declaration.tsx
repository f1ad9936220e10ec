"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { declarationsQuery } from "../../_components/declaration";
import { DeclarationForm } from "./declaration-form";
import { draftOf, emptyDraft } from "./draft";

/** The form, empty or (with `from`) filled from that action's active version once the list has been read. */
export function NewDeclaration({ from }: { from: string | null }) {
  const t = useTranslations("adminActions");
  const list = useQuery({ ...declarationsQuery(), enabled: from !== null });
  const [empty] = useState(emptyDraft);
  if (!from) return <DeclarationForm initial={empty} />;
  if (list.isPending) return <p className="muted">{t("loading")}</p>;
  const active = list.data?.find((r) => r.name === from && r.status === "active");
  return (
    <>
      {active ? null : <p className="muted">{t("form.fromMissing", { name: from })}</p>}
      <DeclarationForm initial={active ? draftOf(active.spec) : empty} />
    </>
  );
}
