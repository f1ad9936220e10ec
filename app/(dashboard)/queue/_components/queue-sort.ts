// The queue's order, computed on the server: TanStack Table's framework-free core sorts the rows (no React
// state, nothing shipped to the browser); queue-table.tsx renders them.
import {
  createTable,
  getCoreRowModel,
  getSortedRowModel,
  type ColumnDef,
  type SortingState,
} from "@tanstack/table-core";
import type { QueueRow } from "@/lib/schemas/proposal-dto";
import type { QueueSort } from "./queue-options";

const sortToState: Record<QueueSort, SortingState> = {
  expiry: [{ id: "expiresAt", desc: false }],
  amount_desc: [{ id: "amountMinor", desc: true }],
  amount_asc: [{ id: "amountMinor", desc: false }],
  newest: [{ id: "createdAt", desc: true }],
};

/** The columns the queue sorts by, with the value each sorts on. */
const sortColumns: ColumnDef<QueueRow>[] = [
  { id: "amountMinor", accessorKey: "amountMinor" },
  { id: "expiresAt", accessorFn: (r) => r.expiresAt },
  { id: "createdAt", accessorFn: (r) => r.createdAt },
];

/** The rows in the order the reviewer asked for (the sorted row model, built once). */
export function sortQueueRows(rows: QueueRow[], sort: QueueSort): QueueRow[] {
  const table = createTable<QueueRow>({
    data: rows,
    columns: sortColumns,
    state: {},
    onStateChange: () => undefined,
    renderFallbackValue: null,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: (r) => r.id,
  });
  table.setOptions((prev) => ({ ...prev, state: { ...table.initialState, sorting: sortToState[sort] } }));
  return table.getRowModel().rows.map((r) => r.original);
}
