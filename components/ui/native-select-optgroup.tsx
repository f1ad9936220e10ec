import * as React from "react";

import { cx } from "@/lib/cx";

// Its own module, not in native-select.tsx: Turbopack ships every export of a module a page imports, and
// /queue (150 KiB budget, bench:ui) uses the select without option groups.
export function NativeSelectOptGroup({ className, ...props }: React.ComponentProps<"optgroup">) {
  return (
    <optgroup
      data-slot="native-select-optgroup"
      className={cx("bg-[Canvas] text-[CanvasText]", className)}
      {...props}
    />
  );
}
