import type { ReactNode } from "react";

/**
 * What an action just did ("Saved.", "Waits for a second admin."), announced politely (`role="status"`) in the
 * notice box; nothing at all while there is nothing to say (null, false or "").
 */
export function Notice({ children }: { children: ReactNode }) {
  if (children === null || children === undefined || children === false || children === "") return null;
  return (
    <p className="notice" role="status">
      {children}
    </p>
  );
}
