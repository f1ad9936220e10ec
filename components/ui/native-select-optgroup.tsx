import { slotElement } from "./slot-element";

// Its own module, not in native-select.tsx: Turbopack ships every export of a module a page imports, and
// /queue (150 KiB budget, bench:ui) uses the select without option groups. Defaults: components/ui/fields.css.
export const NativeSelectOptGroup = slotElement("optgroup", "native-select-optgroup");
