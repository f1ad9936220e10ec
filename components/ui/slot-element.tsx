import * as React from "react";

/**
 * A component that renders `type` (an element name or a component) with `data-slot={slot}` and passes every
 * prop through. For the parts whose look is only their defaults, which live in components/ui/*.css
 * (`[data-slot="…"]` in `@layer components`, below the utilities): a caller's className wins over them.
 * Props come after `data-slot`, as in shadcn/ui, so a caller can still set its own.
 */
export function slotElement<T extends React.ElementType>(type: T, slot: string) {
  function SlotElement(props: React.ComponentProps<T>) {
    return React.createElement(type, { "data-slot": slot, ...props });
  }
  SlotElement.displayName = `slot(${slot})`;
  return SlotElement;
}
