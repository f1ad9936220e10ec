"use client";

import type { ReactNode } from "react";
import { QueryClientProvider } from "@tanstack/react-query";
import { NuqsAdapter } from "nuqs/adapters/next/app";
import { getQueryClient } from "@/lib/queries/query-client";

/**
 * React Query and nuqs for the pages that keep their data in the browser (detail, decided, executions,
 * audit, admin). Loaded on demand by components/providers.tsx: the server-rendered /queue never downloads it.
 */
export function DataProviders({ children }: { children: ReactNode }) {
  return (
    <NuqsAdapter>
      <QueryClientProvider client={getQueryClient()}>{children}</QueryClientProvider>
    </NuqsAdapter>
  );
}
