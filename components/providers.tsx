"use client";

import dynamic from "next/dynamic";
import { useState, type ReactNode } from "react";
import { usePathname } from "next/navigation";
import { ThemeProvider } from "@/components/theme/theme-provider";

// React Query + nuqs load only where a page needs them. /queue is rendered on the server (issue 13's
// first-load budget, bench:ui): it gets neither. Once another page has needed them they stay mounted.
const DataProviders = dynamic(() => import("./data-providers").then((m) => m.DataProviders));

/** Pages that render without the client data providers. */
export const withoutDataProviders = (pathname: string) => pathname === "/queue";

export function Providers({ children, nonce }: { children: ReactNode; nonce?: string }) {
  const pathname = usePathname();
  const [data, setData] = useState(() => !withoutDataProviders(pathname));
  if (!data && !withoutDataProviders(pathname)) setData(true);
  return <ThemeProvider nonce={nonce}>{data ? <DataProviders>{children}</DataProviders> : children}</ThemeProvider>;
}
