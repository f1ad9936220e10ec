import { DataTable } from "@/components/ui/data-table";

type Props<T> = Omit<Parameters<typeof DataTable<T>>[0], "rowKey" | "cellClassName"> &
  // How a row is told apart: its `id` when it has one, else the caller says.
  (T extends { id: string } ? { rowKey?: (row: T) => string } : { rowKey: (row: T) => string });

/**
 * An Admin table (docs/architecture.md "Client views in parts"): DataTable whose long unbroken values (key
 * prefixes, verification keys, URLs) may wrap anywhere, so a table fits a phone's width instead of scrolling
 * inside its box; rows are keyed by their id unless `rowKey` says otherwise.
 */
export function AdminTable<T>({ rowKey, ...props }: Props<T>) {
  // Without a rowKey the type above guarantees an id.
  const key = rowKey ?? ((row: T) => (row as { id: string }).id);
  return <DataTable<T> {...props} rowKey={key} cellClassName="wrap-anywhere" />;
}
