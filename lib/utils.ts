import { clsx, type ClassValue } from "clsx";
import { twMerge } from "tailwind-merge";

/**
 * Joins class names, letting later Tailwind utilities win over earlier ones (shadcn/ui's helper). Costs
 * tailwind-merge (~9 KiB gzip) in every browser bundle that reaches it: fine in server components and in
 * code loaded on demand (dialogs, menus); not in what /queue loads up front (bench:ui, first-load guard).
 */
export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}

// Conflict-free joining for the queue's first-load client code: lib/cx.ts (this file pulls tailwind-merge).
export { cx } from "./cx";
