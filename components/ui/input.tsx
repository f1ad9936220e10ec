import { slotElement } from "./slot-element";

// Its defaults: app/globals.css, `[data-slot="input"]` in `@layer components`.
const Input = slotElement("input", "input");

export { Input };
