import type { ReactNode } from "react";
import { redirect } from "next/navigation";
import { getActor } from "@/lib/server/auth/actor";
import { AppShell } from "@/components/layout/app-shell";

export const dynamic = "force-dynamic";

// Redirects signed-out visitors; every page below still checks its own permission.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const actor = await getActor();
  if (!actor) redirect("/sign-in");
  return <AppShell actor={actor}>{children}</AppShell>;
}
