// The client's view of /api/admin/actions (docs/admin-api.md "Actions"): the query, and the shapes — the declaration
// and its row are the domain's (lib/domain/action-declaration.ts), the same types the server answers with.
import { queryOptions } from "@tanstack/react-query";
import { apiTyped } from "@/lib/queries/api";
import type {
  ActionDeclarationSpec,
  DeclarationRow,
  DeclaredField,
  DeclaredInputField,
} from "@/lib/domain/action-declaration";

export type { DeclarationRow, DeclarationStatus } from "@/lib/domain/action-declaration";
export type InputFieldSpec = DeclaredInputField;
export type DerivedFieldSpec = DeclaredField;
/** The declaration: the body of POST /api/admin/actions and `spec` in the list. */
export type DeclarationSpec = ActionDeclarationSpec;

export const declarationKeys = { all: ["admin", "actions"] as const };

/** The tenant's declarations: newest version of each name first, plus pending ones. */
export const declarationsQuery = () =>
  queryOptions({
    queryKey: declarationKeys.all,
    queryFn: async () => (await apiTyped<{ data: DeclarationRow[] }>("/api/admin/actions")).data,
  });
