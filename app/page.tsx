import { redirect } from "next/navigation";
import { getActor } from "@/lib/server/auth/actor";
import { landingPath } from "@/lib/domain/permissions";

export const dynamic = "force-dynamic";

export default async function Home() {
  const actor = await getActor();
  if (!actor) redirect("/sign-in");
  redirect(landingPath(actor.roles));
}
