import { ClientForm } from "@/components/forms/client-form";
import { useState, type FormEvent, type ReactNode } from "react";
import { Input } from "@/components/ui/input";
import { cn } from "@/lib/utils";

/**
 * The free text of a list's filter bar: typed freely, applied only on submit (Enter or the button), trimmed,
 * and `null` when empty so the parameter leaves the URL. `setQ("")` empties the box (a "clear filters").
 */
export function useSearchDraft(applied: string, apply: (q: string | null) => void) {
  const [q, setQ] = useState(applied);
  function submit(event: FormEvent) {
    event.preventDefault();
    apply(q.trim() || null);
  }
  return { q, setQ, submit };
}

/** A list page's filter bar: a search form whose controls sit on one wrapping row, aligned on their bottoms. */
export function FilterBar({
  onSubmit,
  className,
  children,
}: {
  onSubmit: (event: FormEvent) => void;
  className?: string;
  children: ReactNode;
}) {
  return (
    <ClientForm role="search" onSubmit={onSubmit} className={cn("flex flex-wrap items-end gap-3", className)}>
      {children}
    </ClientForm>
  );
}

/** The filter bar's search box, with its label; it takes the row's free width. */
export function SearchInput({
  id,
  label,
  placeholder,
  maxLength,
  draft,
}: {
  id: string;
  label: string;
  placeholder: string;
  maxLength?: number;
  draft: { q: string; setQ: (q: string) => void };
}) {
  return (
    <div className="grid min-w-0 flex-1 basis-64 gap-1.5">
      <label htmlFor={id}>{label}</label>
      <Input
        id={id}
        type="search"
        value={draft.q}
        maxLength={maxLength}
        onChange={(e) => draft.setQ(e.target.value)}
        placeholder={placeholder}
      />
    </div>
  );
}
