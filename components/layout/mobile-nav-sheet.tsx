"use client";

import type { ReactNode } from "react";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "@/components/ui/sheet";
import { MainNav, type NavItem } from "./main-nav";

export type MobileNavSheetProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  items: NavItem[];
  label: string;
  title: string;
  closeLabel: string;
  footer: ReactNode;
};

export function MobileNavSheet(props: MobileNavSheetProps) {
  return (
    <Sheet open={props.open} onOpenChange={props.onOpenChange}>
      <SheetContent side="left" closeLabel={props.closeLabel} className="w-72 overflow-y-auto bg-sidebar p-4">
        <SheetHeader className="p-0">
          <SheetTitle>{props.title}</SheetTitle>
          <SheetDescription className="sr-only">{props.label}</SheetDescription>
        </SheetHeader>
        <MainNav items={props.items} label={props.label} onNavigate={() => props.onOpenChange(false)} />
        <div className="mt-auto">{props.footer}</div>
      </SheetContent>
    </Sheet>
  );
}
