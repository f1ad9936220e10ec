import * as React from "react";

import { slotElement } from "./slot-element";

// Defaults of every part: components/ui/table.css, `[data-slot="table…"]` in `@layer components` (a caller's
// className wins over them).
// The container scrolls sideways when the table is wider than the screen (a phone): it is a named region in the tab
// order (a group, not a landmark: its section is the region), so a keyboard user can scroll it too (WCAG 2.1.1;
// axe "scrollable-region-focusable").
function Table(props: React.ComponentProps<"table">) {
  return (
    <div
      data-slot="table-container"
      className="relative w-full overflow-x-auto"
      role="group"
      aria-label={props["aria-label"]}
      tabIndex={0}
    >
      <table data-slot="table" {...props} />
    </div>
  );
}

const TableHeader = slotElement("thead", "table-header");
const TableBody = slotElement("tbody", "table-body");
const TableFooter = slotElement("tfoot", "table-footer");
const TableRow = slotElement("tr", "table-row");
const TableHead = slotElement("th", "table-head");
const TableCell = slotElement("td", "table-cell");
const TableCaption = slotElement("caption", "table-caption");

export { Table, TableHeader, TableBody, TableFooter, TableHead, TableRow, TableCell, TableCaption };
