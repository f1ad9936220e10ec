import { clsx, type ClassValue } from "clsx";

/**
 * Joins class names (clsx). The one class helper, on the server and in the browser. It resolves no
 * conflicts and needs not to: a component's defaults live in the `components` CSS layer (components/ui/*.css,
 * imported by app/globals.css), below the utilities a caller passes, so a caller's `className` wins over a
 * default it conflicts with by the cascade, in any order. Two utilities that conflict inside one className are
 * the caller's own mistake.
 * docs/architecture.md, "Class helper: one `cn`, defaults in a layer".
 */
export function cn(...inputs: ClassValue[]) {
  return clsx(inputs);
}
