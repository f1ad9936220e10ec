"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";

// The sign-out calls (./sign-out.ts) load on click: nothing but the button on every page's first load.
export function SignOutButton({ label }: { label: string }) {
  const [pending, setPending] = useState(false);
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      disabled={pending}
      onClick={async () => {
        setPending(true);
        // If the quick path fails, next-auth's own sign-out page finishes the job (never a silent no-op).
        const done = await import("./sign-out")
          .then((m) => m.signOut())
          .then(
            () => true,
            () => false,
          );
        window.location.assign(done ? "/sign-in" : "/api/auth/signout");
      }}
    >
      {label}
    </Button>
  );
}
