import { slotElement } from "./slot-element";

// Its defaults: components/ui/fields.css, `[data-slot="input"]` in `@layer components`.
const Input = slotElement("input", "input");

export { Input };
