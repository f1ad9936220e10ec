import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

/**
 * A page's `generateMetadata` when its title is one message: `namespace.key` in the request's language (the
 * root layout's template adds the product name). `export const generateMetadata = titleMetadata("queue");`
 */
export function titleMetadata(namespace: string, key = "title"): () => Promise<Metadata> {
  return async () => ({ title: (await getTranslations(namespace))(key) });
}
