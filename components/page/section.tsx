import type { ComponentProps, ReactNode } from "react";
import { cn } from "@/lib/utils";

/**
 * A titled region of a page: a `<section>` named by its heading (`aria-labelledby`), so assistive technology
 * lists it as a region under that name and specs find it with `getByRole("region", { name })`. `level` 1 is the
 * page's own title, with its one-line `lead` under it; 2 and 3 are the parts of a page.
 */
export function Section({
  titleId,
  title,
  level = 2,
  headingClassName,
  lead,
  children,
  ...section
}: {
  titleId: string;
  title: ReactNode;
  level?: 1 | 2 | 3;
  headingClassName?: string;
  lead?: ReactNode;
  children?: ReactNode;
} & Omit<ComponentProps<"section">, "title" | "aria-labelledby">) {
  const Heading = `h${level}` as const;
  return (
    <section aria-labelledby={titleId} {...section}>
      <Heading id={titleId} className={headingClassName}>
        {title}
      </Heading>
      {lead ? <p className="lead">{lead}</p> : null}
      {children}
    </section>
  );
}

/**
 * A `Section` drawn as a card (the executions and audit pages' boxes): bordered, padded, its heading sized for
 * a card; `className` and `headingClassName` add to that (layout inside, a margin under the heading).
 */
export function CardSection({ className, headingClassName, ...props }: ComponentProps<typeof Section>) {
  return (
    <Section
      {...props}
      className={cn("min-w-0 rounded-xl border bg-card p-4", className)}
      headingClassName={cn("m-0 text-lg font-semibold", headingClassName)}
    />
  );
}
