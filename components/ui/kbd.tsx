import { slotElement } from "./slot-element";

// Defaults of both: components/ui/kbd.css, `[data-slot="kbd"]` and `[data-slot="kbd-group"]` in `@layer components`.
const Kbd = slotElement("kbd", "kbd");
const KbdGroup = slotElement("kbd", "kbd-group");

export { Kbd, KbdGroup };
