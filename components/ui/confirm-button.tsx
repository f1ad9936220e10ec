"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogHeading, DialogTrigger } from "@/components/ui/dialog";
import { ClientButton } from "@/components/ui/client-button";

/**
 * A button that asks first, in the app's own dialog (components/ui/dialog.tsx) instead of the browser's
 * `confirm()`: a title, what will happen, Cancel (focused first, so Enter does not confirm by accident) and the
 * confirming action. `onConfirm` runs with the dialog open and showing "Working…"; the dialog closes when it
 * settles — the caller shows any error beside the button, as it does for its other requests.
 */
export function ConfirmButton(props: {
  /** The trigger's visible text and, when given, its accessible name. */
  label: string;
  ariaLabel?: string;
  title: string;
  description: string;
  confirmLabel: string;
  disabled?: boolean;
  onConfirm: () => Promise<unknown>;
}) {
  const t = useTranslations("confirmDialog");
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open={open} onOpenChange={(o) => !busy && setOpen(o)}>
      {/* The dialog opens only once React owns the page: a ClientButton (Radix adds the click). */}
      <DialogTrigger asChild>
        <ClientButton type="button" className="secondary" disabled={props.disabled} aria-label={props.ariaLabel}>
          {props.label}
        </ClientButton>
      </DialogTrigger>
      <DialogContent closeLabel={t("close")}>
        <DialogHeading title={props.title} description={props.description} />
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => setOpen(false)} disabled={busy}>
            {t("cancel")}
          </Button>
          <Button
            type="button"
            variant="destructive"
            disabled={busy}
            onClick={async () => {
              setBusy(true);
              try {
                await props.onConfirm();
              } finally {
                setBusy(false);
                setOpen(false);
              }
            }}
          >
            {busy ? t("working") : props.confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
