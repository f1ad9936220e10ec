import { DataTable, type DataTableOwnProps, type RowKey } from "@/components/ui/data-table";

/**
 * An Admin table (docs/architecture.md "Client views in parts"): DataTable whose long unbroken values (key
 * prefixes, verification keys, URLs) may wrap anywhere, so a table fits a phone's width instead of scrolling
 * inside its box.
 */
export function AdminTable<T>(props: Omit<DataTableOwnProps<T>, "cellClassName"> & RowKey<T>) {
  return <DataTable<T> {...props} cellClassName="wrap-anywhere" />;
}
