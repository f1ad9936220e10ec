// The executions list's filters and sort live in the URL (nuqs): they survive reload and can be shared.
// The same parsers are read by the server page (to seed the first paint) and the client view.
import { createLoader, parseAsString, parseAsStringLiteral } from "nuqs/server";
import { executionSorts, executionStates } from "@/lib/domain/execution-state";

export const executionsParams = {
  state: parseAsStringLiteral(executionStates),
  q: parseAsString.withDefault(""),
  sort: parseAsStringLiteral(executionSorts).withDefault("newest"),
};

export const loadExecutionsParams = createLoader(executionsParams);
