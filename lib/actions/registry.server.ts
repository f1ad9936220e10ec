import "server-only";
// How every registered kind's tools run (the declarations are ./registry.ts). One line per kind, in the same
// order; a handler for a tool no kind declares, or a declared tool without a handler, fails the type check and
// lib/actions/registry.test.ts.
import { refundToolHandlers } from "./refund/server";

export const kindToolHandlers = { ...refundToolHandlers };
