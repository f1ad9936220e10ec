"use client";

import { useSyncExternalStore, type ReactNode } from "react";
import { useTranslations } from "next-intl";
import { cn } from "@/lib/utils";
import { readTheme, setTheme, subscribeTheme, themes as options, type Theme } from "./theme";
import { ClientButton } from "@/components/ui/client-button";

export type ThemeIcons = Record<Theme, ReactNode>;

/** Three-way theme picker (light / dark / follow the system) as a radio group of icon buttons. */
// `icons` come rendered from the server (components/layout/app-shell.tsx): no icon library in the browser.
// The group's defaults: components/ui/small-parts.css, `[data-slot="theme-switch"]` (a caller's className wins).
export function ThemeSwitch({ className, icons }: { className?: string; icons: ThemeIcons }) {
  const t = useTranslations("theme");
  // The stored choice is only known in the browser: the server (and hydration) render none checked.
  const theme = useSyncExternalStore(subscribeTheme, readTheme, () => null);
  return (
    <div role="radiogroup" aria-label={t("label")} data-slot="theme-switch" className={className}>
      {options.map((value) => {
        const checked = theme === value;
        return (
          <ClientButton
            key={value}
            type="button"
            role="radio"
            data-slot="theme-option"
            aria-checked={checked}
            aria-label={t(value)}
            title={t(value)}
            onClick={() => setTheme(value)}
            className={cn(
              "inline-flex size-8 cursor-pointer items-center justify-center rounded-md transition-colors hover:bg-accent hover:text-accent-foreground",
              checked ? "bg-accent text-accent-foreground" : "text-muted-foreground",
            )}
          >
            {icons[value]}
          </ClientButton>
        );
      })}
    </div>
  );
}
