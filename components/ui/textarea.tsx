"use client";

import type * as React from "react";
import { useControlledUntilHydrated } from "./use-hydrated";

// Its defaults: components/ui/fields.css, `[data-slot="textarea"]` in `@layer components`.
function Textarea(props: React.ComponentProps<"textarea">) {
  return <textarea data-slot="textarea" {...props} disabled={useControlledUntilHydrated(props)} />;
}

export { Textarea };
