"use client";

import { lazy, Suspense, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import type { NavItem } from "./main-nav";

// The sheet (Radix Dialog) loads on the first tap, so wide screens and cold loads never download it.
// (React.lazy, not next/dynamic: its loader code would be on every first load, bench:ui.)
const MobileNavSheet = lazy(() => import("./mobile-nav-sheet").then((m) => ({ default: m.MobileNavSheet })));

/** Phones: the navigation lives in a sheet opened from the header. */
/** `icon` is rendered by the server (no icon library in the browser bundle). */
export function MobileNav(props: {
  items: NavItem[];
  label: string;
  title: string;
  openLabel: string;
  closeLabel: string;
  footer: ReactNode;
  icon: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  return (
    <>
      <Button
        variant="ghost"
        size="icon"
        className="md:hidden"
        aria-label={props.openLabel}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        {props.icon}
      </Button>
      {used ? (
        <Suspense fallback={null}>
          <MobileNavSheet
            open={open}
            onOpenChange={setOpen}
            items={props.items}
            label={props.label}
            title={props.title}
            closeLabel={props.closeLabel}
            footer={props.footer}
          />
        </Suspense>
      ) : null}
    </>
  );
}
