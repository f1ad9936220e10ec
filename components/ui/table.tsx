import * as React from "react";

import { slotElement } from "./slot-element";

// Defaults of every part: components/ui/table.css, `[data-slot="table…"]` in `@layer components` (a caller's
// className wins over them).
function Table(props: React.ComponentProps<"table">) {
  return (
    <div data-slot="table-container" className="relative w-full overflow-x-auto">
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
