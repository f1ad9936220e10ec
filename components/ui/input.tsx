"use client";

import type * as React from "react";
import { useControlledUntilHydrated } from "./use-hydrated";

// Its defaults: components/ui/fields.css, `[data-slot="input"]` in `@layer components`.
function Input(props: React.ComponentProps<"input">) {
  return <input data-slot="input" {...props} disabled={useControlledUntilHydrated(props)} />;
}

export { Input };
