"use client";

import { lazy, Suspense, useEffect, useState, type ReactNode } from "react";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { isTypingTarget } from "@/components/reviewer/use-shortcuts";
import type { NavItem } from "./main-nav";

// The palette (cmdk) and the help sheet load on first use, so they cost nothing on a cold page load.
// (React.lazy, not next/dynamic: its loader code would be on every first load, bench:ui.)
const CommandPalette = lazy(() => import("./command-palette").then((m) => ({ default: m.CommandPalette })));
const ShortcutHelp = lazy(() => import("./shortcut-help").then((m) => ({ default: m.ShortcutHelp })));

/** Header trigger for the ⌘K palette; also owns the global ⌘K / Ctrl+K and ? keys. */
/** `icon` and `hint` (the ⌘K key cap) are rendered by the server: no code for them in the browser. */
export function CommandMenu({ items, icon, hint }: { items: NavItem[]; icon: ReactNode; hint: ReactNode }) {
  const t = useTranslations("palette");
  const [open, setOpen] = useState(false);
  const [help, setHelp] = useState(false);
  const [used, setUsed] = useState(false);
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === "k") {
        event.preventDefault();
        setUsed(true);
        setOpen((o) => !o);
      } else if (
        event.key === "?" &&
        !isTypingTarget(event.target) &&
        !document.querySelector("[role=dialog][data-state=open]")
      ) {
        event.preventDefault();
        setUsed(true);
        setHelp(true);
      }
    }
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        className="text-muted-foreground"
        aria-keyshortcuts="Control+K Meta+K"
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        {icon}
        <span className="hidden sm:inline">{t("trigger")}</span>
        <span className="sr-only sm:hidden">{t("trigger")}</span>
        {hint}
      </Button>
      {used ? (
        <Suspense fallback={null}>
          <CommandPalette open={open} onOpenChange={setOpen} items={items} />
          <ShortcutHelp open={help} onOpenChange={setHelp} />
        </Suspense>
      ) : null}
    </>
  );
}
