import { slotElement } from "./slot-element";

// Its defaults: app/globals.css, `[data-slot="textarea"]` in `@layer components`.
const Textarea = slotElement("textarea", "textarea");

export { Textarea };
