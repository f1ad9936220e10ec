"use client";

import { useFormatter } from "next-intl";

/** A UTC instant shown in the viewer's locale, with the exact ISO value on hover. */
export function DateTime({ value }: { value: string | Date }) {
  const format = useFormatter();
  const date = typeof value === "string" ? new Date(value) : value;
  return (
    <time dateTime={date.toISOString()} title={date.toISOString()}>
      {format.dateTime(date, { dateStyle: "medium", timeStyle: "short" })}
    </time>
  );
}
