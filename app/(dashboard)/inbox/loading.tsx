import { getTranslations } from "next-intl/server";
import { PageSkeleton } from "@/components/ui/page-skeleton";

export default async function Loading() {
  return <PageSkeleton label={(await getTranslations("states"))("loading")} />;
}
