"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { QueryClientProvider, useQuery } from "@tanstack/react-query";
import { useLocale, useTranslations } from "next-intl";
import { FileSearch, Hash, ListChecks, Route } from "lucide-react";
import { api } from "@/lib/queries/proposals";
import { getQueryClient } from "@/lib/queries/query-client";
import { queuePageDto } from "@/lib/schemas/proposal-dto";
import { formatMinor } from "@/lib/domain/format-money";
import {
  CommandDialog,
  CommandEmpty,
  CommandGroup,
  CommandInput,
  CommandItem,
  CommandList,
} from "@/components/ui/command";
import type { NavItem } from "./main-nav";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TRACE = /^[0-9a-z_-]{8,128}$/i;

type Props = { open: boolean; onOpenChange: (open: boolean) => void; items: NavItem[] };

/**
 * ⌘K: jump to a page, a waiting proposal, a proposal id, a trace, or search decided proposals by order.
 * Brings its own React Query provider (the browser's one client): /queue renders without the data providers.
 */
export function CommandPalette(props: Props) {
  return (
    <QueryClientProvider client={getQueryClient()}>
      <Palette {...props} />
    </QueryClientProvider>
  );
}

function Palette({ open, onOpenChange, items }: Props) {
  const t = useTranslations("palette");
  const locale = useLocale();
  const router = useRouter();
  const [value, setValue] = useState("");
  const canQueue = items.some((i) => i.href === "/queue");
  const canAudit = items.some((i) => i.href === "/audit");
  const pending = useQuery({
    queryKey: ["proposals", "palette"],
    queryFn: () => api("/api/proposals?limit=50", queuePageDto),
    enabled: open && canQueue,
  });
  const go = (href: string) => {
    onOpenChange(false);
    setValue("");
    router.push(href);
  };
  const typed = value.trim();
  return (
    <CommandDialog open={open} onOpenChange={onOpenChange} title={t("title")} description={t("description")}>
      <CommandInput
        placeholder={t("placeholder")}
        value={value}
        onValueChange={setValue}
        aria-label={t("placeholder")}
      />
      <CommandList>
        <CommandEmpty>{t("empty")}</CommandEmpty>
        {typed ? (
          <CommandGroup heading={t("jump")}>
            {UUID.test(typed) && canQueue ? (
              <CommandItem value={`proposal ${typed}`} onSelect={() => go(`/proposals/${typed.toLowerCase()}`)}>
                <Hash aria-hidden /> {t("openProposal", { id: typed.slice(0, 8) })}
              </CommandItem>
            ) : null}
            {TRACE.test(typed) && canAudit ? (
              <CommandItem value={`trace ${typed}`} onSelect={() => go(`/audit/traces/${encodeURIComponent(typed)}`)}>
                <Route aria-hidden /> {t("openTrace", { id: typed })}
              </CommandItem>
            ) : null}
            {canQueue ? (
              <CommandItem value={`decided ${typed}`} onSelect={() => go(`/decided?q=${encodeURIComponent(typed)}`)}>
                <FileSearch aria-hidden /> {t("searchDecided", { q: typed })}
              </CommandItem>
            ) : null}
          </CommandGroup>
        ) : null}
        {pending.data?.rows.length ? (
          <CommandGroup heading={t("waiting")}>
            {pending.data.rows.map((r) => (
              <CommandItem
                key={r.id}
                value={`${r.orderNumber} ${r.recipientHolder ?? r.summary ?? ""} ${r.id}`}
                onSelect={() => go(`/proposals/${r.id}`)}
              >
                <ListChecks aria-hidden />
                <span className="font-medium">{r.orderNumber}</span>
                <span className="text-muted-foreground">
                  {r.amountMinor !== null && r.currency !== null
                    ? `${formatMinor(r.amountMinor, r.currency, locale)} · ${r.recipientHolder}`
                    : r.summary}
                </span>
              </CommandItem>
            ))}
          </CommandGroup>
        ) : null}
        <CommandGroup heading={t("pages")}>
          {items.map((i) => (
            <CommandItem key={i.href} value={`page ${i.label}`} onSelect={() => go(i.href)}>
              {i.label}
            </CommandItem>
          ))}
        </CommandGroup>
      </CommandList>
    </CommandDialog>
  );
}
