import { slotElement } from "./slot-element";

// Its defaults: app/globals.css, `[data-slot="skeleton"]` in `@layer components`.
const Skeleton = slotElement("div", "skeleton");

export { Skeleton };
