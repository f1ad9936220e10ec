import * as React from "react";
import { LineIcon } from "./line-icon";
import { slotElement } from "./slot-element";

// Defaults of the select, its options and option groups: components/ui/fields.css, `[data-slot="native-select…"]` in
// `@layer components` (a caller's className wins).
function NativeSelect({
  size = "default",
  ...props
}: Omit<React.ComponentProps<"select">, "size"> & { size?: "sm" | "default" }) {
  return (
    <div
      className="group/native-select relative w-fit has-[select:disabled]:opacity-50"
      data-slot="native-select-wrapper"
    >
      <select data-slot="native-select" data-size={size} {...props} />
      {/* lucide's chevron-down, inline: no icon library on the queue's first load (bench:ui). */}
      <LineIcon
        name="chevron-down"
        className="pointer-events-none absolute top-1/2 right-3.5 size-4 -translate-y-1/2 text-muted-foreground opacity-50 select-none"
        data-slot="native-select-icon"
      >
        <path d="m6 9 6 6 6-6" />
      </LineIcon>
    </div>
  );
}

const NativeSelectOption = slotElement("option", "native-select-option");

export { NativeSelect, NativeSelectOption };
