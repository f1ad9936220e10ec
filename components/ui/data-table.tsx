import type * as React from "react";

import { cn } from "@/lib/utils";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";

/** A column of a data table: its header, how one row fills its cell, and optional classes for its cells. */
export type Column<T> = {
  id: string;
  header: React.ReactNode;
  cell: (row: T) => React.ReactNode;
  /** Classes of this column's cells: utilities, so they win over the table's defaults (components/ui/table.css). */
  className?: string;
  align?: "start" | "end";
};

/** Attributes a row carries for tests and links (data-*, aria-*), computed from the row. */
type RowAttributes = Record<`data-${string}` | `aria-${string}`, string | undefined>;

/** How a row is told apart: by its `id` when it has one, else as the caller says. */
export type RowKey<T> = { rowKey?: (row: T) => string } & (T extends { id: string }
  ? unknown
  : { rowKey: (row: T) => string });

/** DataTable's props but for `rowKey` (RowKey). */
export type DataTableOwnProps<T> = {
  /** The table's accessible name (wide screens) and the card list's (phones). */
  label: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowAttributes?: (row: T) => RowAttributes;
  rowClassName?: string;
  /** Extra classes of every header and body cell (a column's className comes after). */
  headClassName?: string;
  cellClassName?: string;
  /** Shown instead of the table when there are no rows. */
  empty?: React.ReactNode;
  /** Phones: one card per row instead of the table (the table shows from the md breakpoint). */
  card?: (row: T) => React.ReactNode;
  cardAttributes?: (row: T) => RowAttributes;
  cardClassName?: string;
  /** Classes and attributes of the wide-screen wrapper and of the table (data-* only). */
  wrapperClassName?: string;
  wrapperAttributes?: RowAttributes;
  tableAttributes?: RowAttributes;
};

export type DataTableProps<T> = DataTableOwnProps<T> & RowKey<T>;

const alignEnd = "text-right";

/**
 * The lists' one table (audit search, executions, decided): headers and cells from typed columns over
 * components/ui/table.tsx, an empty state, and on phones an optional card per row. No hooks and no
 * "use client", so server components render it too. Its defaults (wrapper, header and body cells, phone
 * cards) are in components/ui/table.css, `[data-slot="data-table…"]` in `@layer components`: every className
 * prop wins over them.
 */
export function DataTable<T>({
  label,
  columns,
  rows,
  rowKey,
  rowAttributes,
  rowClassName,
  headClassName,
  cellClassName,
  empty,
  card,
  cardAttributes,
  cardClassName,
  wrapperClassName,
  wrapperAttributes,
  tableAttributes,
}: DataTableProps<T>) {
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  // Without a rowKey the type above guarantees an id.
  const keyOf = rowKey ?? ((row: T) => (row as { id: string }).id);
  return (
    <>
      <div {...wrapperAttributes} data-slot="data-table" className={cn(wrapperClassName, card && "hidden md:block")}>
        <Table aria-label={label} {...tableAttributes}>
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              {columns.map((c) => (
                <TableHead key={c.id} scope="col" className={cn(headClassName, c.align === "end" && alignEnd)}>
                  {c.header}
                </TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={keyOf(row)} {...rowAttributes?.(row)} className={rowClassName}>
                {columns.map((c) => (
                  <TableCell key={c.id} className={cn(cellClassName, c.className, c.align === "end" && alignEnd)}>
                    {c.cell(row)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      {card ? (
        <ul className="m-0 grid list-none gap-3 p-0 md:hidden" aria-label={label}>
          {rows.map((row) => (
            <li key={keyOf(row)} {...cardAttributes?.(row)} data-slot="data-table-card" className={cardClassName}>
              {card(row)}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

/** What a list shows instead of its table when it has no rows (DataTable's `empty`): a card-like box of text. */
export function DataTableEmpty({ children, ...attributes }: { children: React.ReactNode } & RowAttributes) {
  return (
    <div {...attributes} className="rounded-xl border bg-card p-6 text-center text-muted-foreground">
      {children}
    </div>
  );
}
