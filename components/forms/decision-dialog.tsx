"use client";

import { ClientForm } from "@/components/forms/client-form";
import type { ComponentProps, FormEvent, ReactNode, Ref } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogHeading } from "@/components/ui/dialog";

/**
 * The frame of a decision's confirmation (approve, reject, bulk reject): a modal dialog that, keyboard-first,
 * puts the focus on what the reviewer does next (`focus` returns it: the reason box, the password, the confirm
 * button) instead of the first focusable element.
 */
export function DecisionDialog({
  open,
  onOpenChange,
  closeLabel,
  focus,
  describedBy,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  closeLabel: string;
  focus: () => HTMLElement | null | undefined;
  /** The id of the text that describes the dialog, when it is not the description under the title. */
  describedBy?: string;
  children: ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        closeLabel={closeLabel}
        // Only when given: an explicit undefined would drop Radix's link to the description under the title.
        {...(describedBy ? { "aria-describedby": describedBy } : {})}
        onOpenAutoFocus={(e) => {
          e.preventDefault();
          focus()?.focus();
        }}
      >
        {children}
      </DialogContent>
    </Dialog>
  );
}

/**
 * A decision dialog's form: heading, the caller's fields, then Cancel and the confirm button (disabled while
 * pending or when the decision can no longer be made).
 */
export function DecisionForm({
  onSubmit,
  heading,
  cancel,
  confirm,
  confirmRef,
  children,
}: {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  heading: ComponentProps<typeof DialogHeading>;
  cancel: { label: string; onClick: () => void };
  confirm: { label: string; disabled: boolean; variant?: "destructive" };
  confirmRef?: Ref<HTMLButtonElement>;
  children: ReactNode;
}) {
  return (
    <ClientForm onSubmit={onSubmit} className="grid gap-4">
      <DialogHeading {...heading} />
      {children}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={cancel.onClick}>
          {cancel.label}
        </Button>
        <Button ref={confirmRef} type="submit" variant={confirm.variant} disabled={confirm.disabled}>
          {confirm.label}
        </Button>
      </DialogFooter>
    </ClientForm>
  );
}
