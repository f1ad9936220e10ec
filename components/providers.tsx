"use client";

import { lazy, useState, type ReactNode } from "react";
import { usePathname } from "next/navigation";

// React Query + nuqs load only where a page needs them. /queue is rendered on the server (its
// first-load budget, bench:ui): it gets neither. Once another page has needed them they stay mounted.
// React.lazy, like next/dynamic with SSR (no Suspense boundary: the server renders it into the shell, so a
// page's notFound() still sets its status; a client navigation from /queue waits in its transition while
// the chunk loads). Not next/dynamic itself: its loader code would cost ~1.5 KiB on /queue's first load.
// Unlike next/dynamic nothing preloads the chunk: other pages fetch it when they hydrate.
const DataProviders = lazy(() => import("./data-providers").then((m) => ({ default: m.DataProviders })));

/** Pages that render without the client data providers. */
export const withoutDataProviders = (pathname: string) => pathname === "/queue";

export function Providers({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const [data, setData] = useState(() => !withoutDataProviders(pathname));
  if (!data && !withoutDataProviders(pathname)) setData(true);
  return data ? <DataProviders>{children}</DataProviders> : children;
}
