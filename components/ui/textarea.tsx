import { slotElement } from "./slot-element";

// Its defaults: components/ui/fields.css, `[data-slot="textarea"]` in `@layer components`.
const Textarea = slotElement("textarea", "textarea");

export { Textarea };
