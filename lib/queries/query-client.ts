// The browser's one QueryClient (created on first use). Shared by the data providers and by islands that
// bring their own provider when opened on a page without them (the ⌘K palette on /queue).
import { QueryClient } from "@tanstack/react-query";

let client: QueryClient | null = null;

export function getQueryClient(): QueryClient {
  // On the server every render gets a fresh client (no data shared between requests).
  if (typeof window === "undefined") return newClient();
  client ??= newClient();
  return client;
}

function newClient() {
  return new QueryClient({ defaultOptions: { queries: { staleTime: 5_000, refetchOnWindowFocus: true, retry: 1 } } });
}
