/**
 * Cell classes every Admin table passes to DataTable: long unbroken values (key prefixes, verification keys,
 * URLs) may wrap anywhere, so a table fits a phone's width instead of scrolling inside its box.
 */
export const adminCellClass = "wrap-anywhere";
