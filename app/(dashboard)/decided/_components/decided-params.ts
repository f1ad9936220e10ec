// Search, status filter and page of the Decided view live in the URL (reload and share keep them).
import { createLoader, parseAsInteger, parseAsString, parseAsStringLiteral } from "nuqs/server";
import { decidedStatuses } from "@/lib/domain/proposal-state";

export const decidedParams = {
  q: parseAsString.withDefault(""),
  status: parseAsStringLiteral(decidedStatuses),
  page: parseAsInteger.withDefault(1),
};
export const loadDecidedParams = createLoader(decidedParams);
