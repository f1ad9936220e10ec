import { slotElement } from "./slot-element";

// Defaults of every part: components/ui/card.css, `[data-slot="card…"]` in `@layer components`.
const Card = slotElement("div", "card");
const CardHeader = slotElement("div", "card-header");
const CardTitle = slotElement("div", "card-title");
const CardDescription = slotElement("div", "card-description");
const CardAction = slotElement("div", "card-action");
const CardContent = slotElement("div", "card-content");
const CardFooter = slotElement("div", "card-footer");

export { Card, CardHeader, CardFooter, CardTitle, CardAction, CardDescription, CardContent };
