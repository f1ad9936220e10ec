"use client";

import dynamic from "next/dynamic";
import { useEffect, useState, type ReactNode } from "react";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { isTypingTarget } from "@/components/reviewer/use-shortcuts";
import type { NavItem } from "./main-nav";

// The palette (cmdk) and the help sheet load on first use, so they cost nothing on a cold page load.
const CommandPalette = dynamic(() => import("./command-palette").then((m) => m.CommandPalette), { ssr: false });
const ShortcutHelp = dynamic(() => import("./shortcut-help").then((m) => m.ShortcutHelp), { ssr: false });

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
      } else if (event.key === "?" && !isTypingTarget(event.target) && !document.querySelector("[role=dialog][data-state=open]")) {
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
      {used ? <CommandPalette open={open} onOpenChange={setOpen} items={items} /> : null}
      {used ? <ShortcutHelp open={help} onOpenChange={setHelp} /> : null}
    </>
  );
}
