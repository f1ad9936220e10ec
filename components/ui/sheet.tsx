"use client";

import * as React from "react";
import * as SheetPrimitive from "@radix-ui/react-dialog";

import { DialogCornerClose, DialogOverlay, DialogPortal } from "./dialog";
import { slotElement } from "./slot-element";

// A dialog that slides in from a side: the same Radix primitive and the same overlay, portal and × as
// components/ui/dialog.tsx. Defaults of every part: components/ui/dialog.css, `[data-slot="sheet…"]` (the side from
// `data-side`) in `@layer components`, below the utilities, so a caller's className wins over them.
const Sheet = slotElement(SheetPrimitive.Root, "sheet");
const SheetTrigger = slotElement(SheetPrimitive.Trigger, "sheet-trigger");
const SheetClose = slotElement(SheetPrimitive.Close, "sheet-close");
const SheetHeader = slotElement("div", "sheet-header");
const SheetFooter = slotElement("div", "sheet-footer");
const SheetTitle = slotElement(SheetPrimitive.Title, "sheet-title");
const SheetDescription = slotElement(SheetPrimitive.Description, "sheet-description");

function SheetContent({
  children,
  side = "right",
  showCloseButton = true,
  closeLabel = "Close",
  ...props
}: React.ComponentProps<typeof SheetPrimitive.Content> & {
  side?: "top" | "right" | "bottom" | "left";
  showCloseButton?: boolean;
  closeLabel?: string;
}) {
  return (
    <DialogPortal>
      <DialogOverlay />
      <SheetPrimitive.Content data-slot="sheet-content" data-side={side} {...props}>
        {children}
        {showCloseButton && <DialogCornerClose label={closeLabel} slot="sheet-close" />}
      </SheetPrimitive.Content>
    </DialogPortal>
  );
}

export { Sheet, SheetTrigger, SheetClose, SheetContent, SheetHeader, SheetFooter, SheetTitle, SheetDescription };
