"use client";

import { useState, type ReactNode } from "react";
import { Menu } from "lucide-react";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle, SheetTrigger } from "@/components/ui/sheet";
import { Button } from "@/components/ui/button";
import { MainNav, type NavItem } from "./main-nav";

/** Phones: the navigation lives in a sheet opened from the header. */
export function MobileNav(props: { items: NavItem[]; label: string; title: string; openLabel: string; closeLabel: string; footer: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>
        <Button variant="ghost" size="icon" className="md:hidden" aria-label={props.openLabel}>
          <Menu aria-hidden />
        </Button>
      </SheetTrigger>
      <SheetContent side="left" closeLabel={props.closeLabel} className="w-72 bg-sidebar p-4">
        <SheetHeader className="p-0">
          <SheetTitle>{props.title}</SheetTitle>
          <SheetDescription className="sr-only">{props.label}</SheetDescription>
        </SheetHeader>
        <MainNav items={props.items} label={props.label} onNavigate={() => setOpen(false)} />
        <div className="mt-auto">{props.footer}</div>
      </SheetContent>
    </Sheet>
  );
}
