import { clsx, type ClassValue } from "clsx";

/**
 * Joins class names without resolving conflicts (clsx only, no tailwind-merge). For client components on
 * the queue's first load (bench:ui, lib/queries/first-load-guard.test.ts): their classes are written so
 * that nothing conflicts — a variant and a caller never set the same utility. Elsewhere use cn (lib/utils).
 */
export function cx(...inputs: ClassValue[]) {
  return clsx(inputs);
}
