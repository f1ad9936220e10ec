import Link from "next/link";
import type { ReactNode } from "react";
import { Section } from "@/components/page/section";

const inboxCard = "rounded-xl border bg-card p-4";

/** One thing waiting: a link to where it is moved on, and a line of detail under it. */
export type InboxItem = {
  key: string;
  href: string;
  /** Data attributes the specs find the item by (data-proposal-id, …). */
  data: Record<`data-${string}`, string>;
  title: ReactNode;
  detail: ReactNode;
};

/**
 * One group of the inbox (second approvals, admin changes, refunds in doubt): its title and help, then its items
 * as a list named by the title, or the group's "nothing here" card; `children` come after (a link onwards).
 */
export function InboxGroup({
  titleId,
  title,
  help,
  empty,
  items,
  children,
}: {
  titleId: string;
  title: string;
  help: string;
  empty: string;
  items: InboxItem[];
  children?: ReactNode;
}) {
  return (
    <Section titleId={titleId} title={title} className="grid gap-3">
      <p className="m-0 text-sm text-muted-foreground">{help}</p>
      {items.length === 0 ? (
        <p className={inboxCard}>{empty}</p>
      ) : (
        <ul className="m-0 grid list-none gap-3 p-0" aria-labelledby={titleId}>
          {items.map((item) => (
            <li key={item.key} className={inboxCard} {...item.data}>
              <Link href={item.href} className="font-semibold">
                {item.title}
              </Link>
              <p className="m-0 mt-1 text-sm text-muted-foreground">{item.detail}</p>
            </li>
          ))}
        </ul>
      )}
      {children}
    </Section>
  );
}
