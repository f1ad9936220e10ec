import { slotElement } from "./slot-element";

// Its defaults: components/ui/skeleton.css, `[data-slot="skeleton"]` in `@layer components`.
const Skeleton = slotElement("div", "skeleton");

export { Skeleton };
