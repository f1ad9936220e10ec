"use client";

import { useSyncExternalStore } from "react";
import { useFormatter, useTimeZone } from "next-intl";
import { clockFormat, clockSecondsFormat, instantFormat } from "@/lib/domain/clock";

const noSubscribe = () => () => {};
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/**
 * The one clock (lib/domain/clock.ts): instants in the viewer's zone, labelled; the tenant's zone and UTC for
 * the hover title. Rendered on the server (and during hydration) in the tenant's zone — also labelled, so never
 * ambiguous — then in the browser's own zone.
 */
export function useClock() {
  const format = useFormatter();
  const tenantZone = useTimeZone() ?? "UTC";
  const zone = useSyncExternalStore(noSubscribe, browserZone, () => tenantZone);
  return {
    zone,
    instant: (d: Date) => format.dateTime(d, { ...instantFormat, timeZone: zone }),
    clock: (d: Date, seconds = false) =>
      format.dateTime(d, { ...(seconds ? clockSecondsFormat : clockFormat), timeZone: zone }),
    title: (d: Date) =>
      `${format.dateTime(d, { ...instantFormat, second: "2-digit", timeZone: tenantZone })} (${tenantZone}) · ${d.toISOString().replace(".000Z", "Z")}`,
  };
}
