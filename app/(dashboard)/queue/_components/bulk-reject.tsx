"use client";

// Bulk reject on the queue: the rows' checkboxes are server-rendered (name="bulk-reject", one per row and card,
// value = proposal id, data-hash = the hash the reviewer sees); this island counts what is selected and opens
// the dialog, which loads on first use (React.lazy: Radix and zod stay off the queue's first load, bench:ui).
import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import type { BulkItem } from "./bulk-reject-dialog";
import { BULK_CHECKBOX } from "./queue-options";

const BulkRejectDialog = lazy(() => import("./bulk-reject-dialog").then((m) => ({ default: m.BulkRejectDialog })));

/** The selected proposals, once each (a row and its phone card carry the same value). */
function readSelection(): BulkItem[] {
  const seen = new Map<string, BulkItem>();
  for (const box of document.querySelectorAll<HTMLInputElement>(`input[name="${BULK_CHECKBOX}"]:checked`)) {
    if (!seen.has(box.value))
      seen.set(box.value, {
        proposalId: box.value,
        hash: box.dataset.hash ?? "",
        orderNumber: box.dataset.order ?? box.value,
      });
  }
  return [...seen.values()];
}

function clearSelection() {
  for (const box of document.querySelectorAll<HTMLInputElement>(`input[name="${BULK_CHECKBOX}"]`)) box.checked = false;
}

export function BulkReject() {
  const t = useTranslations("bulkReject");
  const [selected, setSelected] = useState<BulkItem[]>([]);
  const [open, setOpen] = useState(false);
  // What the reviewer confirms is what was selected when the dialog opened (rows may leave meanwhile: the
  // server then reports those one by one).
  const [confirming, setConfirming] = useState<BulkItem[]>([]);
  const [used, setUsed] = useState(false);
  // Ticking cells (countdowns) mutate the DOM every second: keep the same state unless the selection changed.
  const reread = useCallback(() => {
    const next = readSelection();
    const key = (items: BulkItem[]) => items.map((i) => `${i.proposalId}:${i.hash}`).join(",");
    setSelected((prev) => (key(prev) === key(next) ? prev : next));
  }, []);
  useEffect(() => {
    const onChange = (e: Event) => {
      const box = e.target;
      if (!(box instanceof HTMLInputElement) || box.name !== BULK_CHECKBOX) return;
      // The row and its phone card are two checkboxes for one proposal: keep them in step.
      for (const twin of document.querySelectorAll<HTMLInputElement>(`input[name="${BULK_CHECKBOX}"]`))
        if (twin.value === box.value) twin.checked = box.checked;
      reread();
    };
    document.addEventListener("change", onChange);
    // The live queue re-renders rows (a proposal decided elsewhere disappears, and its checkbox with it).
    const observer = new MutationObserver(reread);
    observer.observe(document.querySelector("main") ?? document.body, { childList: true, subtree: true });
    return () => {
      document.removeEventListener("change", onChange);
      observer.disconnect();
    };
  }, [reread]);

  return (
    <div className="mb-3 flex min-h-9 flex-wrap items-center gap-2" data-testid="bulk-reject-bar">
      <span className="text-sm text-muted-foreground" aria-live="polite">
        {t("selected", { count: selected.length })}
      </span>
      <Button
        type="button"
        variant="destructive"
        size="sm"
        disabled={selected.length === 0}
        onClick={() => {
          setConfirming(readSelection());
          setUsed(true);
          setOpen(true);
        }}
      >
        {t("open", { count: selected.length })}
      </Button>
      {selected.length > 0 ? (
        <Button
          type="button"
          variant="ghost"
          size="sm"
          onClick={() => {
            clearSelection();
            reread();
          }}
        >
          {t("clear")}
        </Button>
      ) : null}
      {used ? (
        <Suspense fallback={null}>
          <BulkRejectDialog
            open={open}
            items={confirming}
            onClose={(decided) => {
              setOpen(false);
              if (decided) clearSelection();
              reread();
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
