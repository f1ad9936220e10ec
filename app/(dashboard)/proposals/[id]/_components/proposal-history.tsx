"use client";

import { useTranslations } from "next-intl";
import type { ProposalPage } from "@/lib/schemas/proposal-dto";
import { DateTime } from "@/components/ui/date-time";
import { Section } from "@/components/page/section";
import { CommentForm } from "./comment-form";

/** The proposal's history in time order, the comment form for staff who may comment, the hashed JSON. */
export function ProposalHistory({ p }: { p: ProposalPage }) {
  const t = useTranslations("proposal");
  const tm = useTranslations("authMethods");
  const tc = useTranslations("comments");
  return (
    <Section titleId="history-title" title={t("history")} headingClassName="mt-0" className="panel">
      {/* One history in time order: creation, approvals, comments, the rejection (each with its time and zone). */}
      <ol>
        {[
          {
            at: p.createdAt,
            key: "created",
            node: (
              <>
                {t("created")}: <DateTime value={p.createdAt} />
              </>
            ),
          },
          ...p.approvals.map((a) => ({
            at: a.createdAt,
            key: `approval-${a.id}`,
            node: (
              <>
                {t("approvedBy", {
                  name: a.approver,
                  method: tm.has(a.authMethod) ? tm(a.authMethod) : a.authMethod,
                })}{" "}
                — <DateTime value={a.createdAt} />
              </>
            ),
          })),
          ...p.comments.map((c) => ({
            at: c.createdAt,
            key: `comment-${c.id}`,
            node: (
              <div data-comment-id={c.id}>
                {tc("by", { name: c.author })} — <DateTime value={c.createdAt} />
                <p className="m-0 mt-1 whitespace-pre-wrap break-words">{c.body}</p>
              </div>
            ),
          })),
          ...(p.rejection
            ? [
                {
                  at: p.rejection.at ?? p.decidedAt ?? p.createdAt,
                  key: "rejection",
                  node: (
                    <>
                      {t("rejectedBy", { name: p.rejection.by ?? "—" })}
                      {p.rejection.at ? (
                        <>
                          {" — "}
                          <DateTime value={p.rejection.at} />
                        </>
                      ) : null}
                    </>
                  ),
                },
              ]
            : []),
        ]
          .sort((a, b) => Date.parse(a.at) - Date.parse(b.at))
          .map((e) => (
            <li key={e.key}>{e.node}</li>
          ))}
      </ol>
      {p.viewer.canComment ? <CommentForm proposalId={p.id} /> : null}
      <details>
        <summary className="cursor-pointer">{t("hashedJson")}</summary>
        <pre className="mono text-xs whitespace-pre-wrap break-all">{p.canonicalJson}</pre>
      </details>
    </Section>
  );
}
