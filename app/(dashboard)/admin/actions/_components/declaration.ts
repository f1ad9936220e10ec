// The shapes of /api/admin/actions as /work/declared-contract.md states them (the backend on branch `declared` owns
// the zod schemas; until they land here, the UI reads the answer as these types, as `apiTyped` reads other lists).
import { queryOptions } from "@tanstack/react-query";
import { apiTyped } from "@/lib/queries/api";

export type InputFieldSpec =
  | { name: string; type: "string"; description: string; pattern?: string; enum?: string[]; maxLength?: number }
  | { name: string; type: "integer"; description: string; minimum: number; maximum: number }
  | { name: string; type: "boolean"; description: string };

export type DerivedFieldSpec = {
  key: string;
  pointer: string;
  label: { en: string; es: string };
  clear: boolean;
};

/** The declaration: the body of POST /api/admin/actions and `spec` in the list. */
export type DeclarationSpec = {
  name: string;
  description: string;
  input: InputFieldSpec[];
  derive: { path: string };
  fields: DerivedFieldSpec[];
  sentence: { en: string; es: string };
  policy: { approvals: number; stepUp: boolean; money?: { amountKey: string; currencyKey: string } };
  execute: { action: string };
};

export const declarationStatuses = ["pending", "active", "rejected", "retired", "superseded"] as const;
export type DeclarationStatus = (typeof declarationStatuses)[number];

export type DeclarationRow = {
  id: string;
  name: string;
  version: number;
  status: DeclarationStatus;
  spec: DeclarationSpec;
  proposedBy: { name: string; email: string };
  proposedAt: string;
  decidedBy: { name: string; email: string } | null;
  decidedAt: string | null;
  /** The viewer proposed it. */
  mine: boolean;
  /** Why the viewer may not approve it (messages adminChanges.refusals.*), or null. */
  approvalRefusal: string | null;
};

export const declarationKeys = { all: ["admin", "actions"] as const };

/** The tenant's declarations: newest version of each name first, plus pending ones. */
export const declarationsQuery = () =>
  queryOptions({
    queryKey: declarationKeys.all,
    queryFn: async () => (await apiTyped<{ data: DeclarationRow[] }>("/api/admin/actions")).data,
  });
