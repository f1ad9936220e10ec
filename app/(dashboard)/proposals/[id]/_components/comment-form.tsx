"use client";

import { ClientForm } from "@/components/forms/client-form";
import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { api, proposalDto, proposalKeys } from "@/lib/queries/proposals";
import { COMMENT_MAX } from "@/lib/domain/decision-text-limits";
import { Field } from "@/components/forms/field";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/textarea";

/** Adds a staff comment to the proposal's history (stored redacted: what is shown is what was stored). */
export function CommentForm({ proposalId }: { proposalId: string }) {
  const t = useTranslations("comments");
  const queryClient = useQueryClient();
  const [body, setBody] = useState("");
  const [error, setError] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: (text: string) =>
      api(`/api/proposals/${encodeURIComponent(proposalId)}/comments`, proposalDto("proposalCommentDto"), {
        method: "POST",
        body: JSON.stringify({ body: text }),
      }),
    onSuccess: () => {
      setBody("");
      setError(null);
    },
    onError: (e) => setError(e.message),
    onSettled: () => queryClient.invalidateQueries({ queryKey: proposalKeys.detail(proposalId) }),
  });
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (body.trim()) add.mutate(body);
  }
  return (
    <ClientForm onSubmit={onSubmit} className="mt-3 grid gap-2" aria-label={t("formLabel")}>
      <Field
        id="proposal-comment"
        label={t("label")}
        hint={t("help", { max: COMMENT_MAX })}
        className="grid gap-2"
        hintClassName="m-0 text-xs text-muted-foreground"
      >
        {(control) => (
          <Textarea
            {...control}
            name="body"
            required
            maxLength={COMMENT_MAX}
            value={body}
            onChange={(e) => setBody(e.target.value)}
          />
        )}
      </Field>
      {error ? (
        <p role="alert" className="m-0 text-sm text-destructive">
          {error}
        </p>
      ) : null}
      <div>
        <Button type="submit" size="sm" disabled={add.isPending || !body.trim()}>
          {add.isPending ? t("sending") : t("add")}
        </Button>
      </div>
    </ClientForm>
  );
}
