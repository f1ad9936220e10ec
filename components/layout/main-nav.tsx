"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cx } from "@/lib/cx";

export type NavItem = { href: string; label: string };

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
                className={cx(
                  "block rounded-md px-3 py-2 text-sm font-medium text-sidebar-foreground no-underline hover:bg-sidebar-accent hover:no-underline",
                  current && "bg-sidebar-accent",
                )}
              >
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
