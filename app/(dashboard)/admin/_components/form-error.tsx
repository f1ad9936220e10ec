"use client";

import { CopyButton } from "@/components/ui/copy-button";
import type { AdminError } from "./use-admin-request";

export function FormError({ id, error }: { id: string; error: AdminError | null }) {
  if (!error) return null;
  return (
    <p className="error-box" role="alert" id={id}>
      {error.message}
    </p>
  );
}

/** A secret shown once (setup link, agent key, channel secret), selectable, labelled and with a copy button. */
export function ShownOnce({ label, value, note }: { label: string; value: string; note: string }) {
  return (
    <div className="notice" role="status">
      <p>
        <strong>{label}</strong>
      </p>
      <p>
        <code className="mono" data-testid="shown-once">
          {value}
        </code>{" "}
        <CopyButton value={value} label={label} />
      </p>
      <p className="muted">{note}</p>
    </div>
  );
}
