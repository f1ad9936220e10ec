"use client";

import type { RefObject } from "react";
import { Button } from "@/components/ui/button";

/** The bottom of a confirmation dialog: its error (if any), the submit button and Cancel. */
export function DialogActions(props: {
  dialogRef: RefObject<HTMLDialogElement | null>;
  error: string | null;
  pending: boolean;
  submitLabel: string;
  pendingLabel: string;
  cancelLabel: string;
}) {
  return (
    <>
      {props.error ? (
        <p className="error-box" role="alert">
          {props.error}
        </p>
      ) : null}
      <div className="row-actions">
        <Button type="submit" disabled={props.pending}>
          {props.pending ? props.pendingLabel : props.submitLabel}
        </Button>
        <Button type="button" variant="outline" onClick={() => props.dialogRef.current?.close()}>
          {props.cancelLabel}
        </Button>
      </div>
    </>
  );
}
