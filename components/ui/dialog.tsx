"use client";

import * as React from "react";
import { XIcon } from "lucide-react";
import * as DialogPrimitive from "@radix-ui/react-dialog";

import { Button } from "@/components/ui/button";
import { slotElement } from "./slot-element";

// Defaults of every part: components/ui/dialog.css, `[data-slot="dialog…"]` in `@layer components` (a caller's
// className wins over them). components/ui/sheet.tsx is this dialog from a side, on the same parts.
const Dialog = slotElement(DialogPrimitive.Root, "dialog");
const DialogTrigger = slotElement(DialogPrimitive.Trigger, "dialog-trigger");
const DialogPortal = slotElement(DialogPrimitive.Portal, "dialog-portal");
const DialogClose = slotElement(DialogPrimitive.Close, "dialog-close");
const DialogOverlay = slotElement(DialogPrimitive.Overlay, "dialog-overlay");
const DialogHeader = slotElement("div", "dialog-header");
const DialogTitle = slotElement(DialogPrimitive.Title, "dialog-title");
const DialogDescription = slotElement(DialogPrimitive.Description, "dialog-description");

/** The × in the corner of a dialog or sheet (`slot`: whose), named by `label` for screen readers. */
function DialogCornerClose({ label, slot }: { label: string; slot: string }) {
  return (
    <DialogPrimitive.Close
      data-slot={slot}
      className="absolute top-4 right-4 rounded-xs opacity-70 ring-offset-background transition-opacity hover:opacity-100 focus:ring-2 focus:ring-ring focus:ring-offset-2 focus:outline-hidden disabled:pointer-events-none data-[state=open]:bg-accent data-[state=open]:text-muted-foreground [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4"
    >
      <XIcon />
      <span className="sr-only">{label}</span>
    </DialogPrimitive.Close>
  );
}

function DialogContent({
  children,
  showCloseButton = true,
  closeLabel = "Close",
  ...props
}: React.ComponentProps<typeof DialogPrimitive.Content> & {
  showCloseButton?: boolean;
  closeLabel?: string;
}) {
  return (
    <DialogPortal data-slot="dialog-portal">
      <DialogOverlay />
      <DialogPrimitive.Content data-slot="dialog-content" {...props}>
        {children}
        {showCloseButton && <DialogCornerClose label={closeLabel} slot="dialog-close" />}
      </DialogPrimitive.Content>
    </DialogPortal>
  );
}

function DialogFooter({
  showCloseButton = false,
  children,
  ...props
}: React.ComponentProps<"div"> & {
  showCloseButton?: boolean;
}) {
  return (
    <div data-slot="dialog-footer" {...props}>
      {children}
      {showCloseButton && (
        <DialogPrimitive.Close asChild>
          <Button variant="outline">Close</Button>
        </DialogPrimitive.Close>
      )}
    </div>
  );
}

/** The title and the line under it that a dialog opens with. */
function DialogHeading({
  title,
  description,
  descriptionProps,
}: {
  title: React.ReactNode;
  description: React.ReactNode;
  descriptionProps?: React.ComponentProps<typeof DialogDescription>;
}) {
  return (
    <DialogHeader>
      <DialogTitle>{title}</DialogTitle>
      <DialogDescription {...descriptionProps}>{description}</DialogDescription>
    </DialogHeader>
  );
}

export {
  Dialog,
  DialogClose,
  DialogContent,
  DialogCornerClose,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogHeading,
  DialogOverlay,
  DialogPortal,
  DialogTitle,
  DialogTrigger,
};
