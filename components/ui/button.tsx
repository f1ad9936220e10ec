import * as React from "react";
import { cva, type VariantProps } from "class-variance-authority";

import { cn } from "@/lib/utils";
import { ClientButton } from "./client-button";

// The styles of each name are in components/ui/button.css (`@layer components`, below the utilities), so a caller's
// className overrides any of them, and the browser gets names instead of utility lists.
const buttonVariants = cva("ui-button", {
  variants: {
    variant: {
      default: "ui-button-default",
      destructive: "ui-button-destructive",
      outline: "ui-button-outline",
      secondary: "ui-button-secondary",
      ghost: "ui-button-ghost",
      link: "ui-button-link",
    },
    size: {
      default: "ui-button-size-default",
      xs: "ui-button-size-xs",
      sm: "ui-button-size-sm",
      lg: "ui-button-size-lg",
      icon: "ui-button-size-icon",
      "icon-xs": "ui-button-size-icon-xs",
      "icon-sm": "ui-button-size-icon-sm",
      "icon-lg": "ui-button-size-icon-lg",
    },
  },
  defaultVariants: {
    variant: "default",
    size: "default",
  },
});

/**
 * A button. No `asChild` (Radix Slot): the button is on every page's first load; for a link that looks
 * like a button, put `buttonVariants({ … })` on the link. With an `onClick` it is a ClientButton (disabled until
 * React owns the page: before that its click did nothing); without one (a submit of a form that works without
 * React) a plain button.
 */
function Button({
  className,
  variant = "default",
  size = "default",
  ...props
}: React.ComponentProps<"button"> & VariantProps<typeof buttonVariants>) {
  const Element = props.onClick ? ClientButton : "button";
  return (
    <Element
      data-slot="button"
      data-variant={variant}
      data-size={size}
      className={cn(buttonVariants({ variant, size }), className)}
      {...props}
    />
  );
}

export { Button, buttonVariants };
