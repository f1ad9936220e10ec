"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { usePathname } from "next/navigation";
import { cn } from "@/lib/utils";

/** `badge`: rendered after the label (the inbox's live count), by the server. */
export type NavItem = { href: string; label: string; badge?: ReactNode };

export function MainNav({ items, label, onNavigate }: { items: NavItem[]; label: string; onNavigate?: () => void }) {
  const pathname = usePathname();
  return (
    <nav aria-label={label}>
      <ul className="m-0 grid list-none gap-1 p-0">
        {items.map((item) => {
          const current = pathname === item.href || pathname.startsWith(item.href + "/");
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                onClick={onNavigate}
                aria-current={current ? "page" : undefined}
                className={cn(
                  "block rounded-md px-3 py-2 text-sm font-medium text-sidebar-foreground no-underline hover:bg-sidebar-accent hover:no-underline",
                  current && "bg-sidebar-accent",
                )}
              >
                {item.label}
                {item.badge}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
