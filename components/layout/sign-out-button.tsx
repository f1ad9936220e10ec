"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";

/**
 * next-auth's documented REST sign-out (what `signOut({ redirect: false })` of next-auth/react does: fetch
 * the CSRF token, POST it to /api/auth/signout), without shipping next-auth/react (~10 KiB gzip) on every
 * dashboard page.
 */
async function signOut() {
  const { csrfToken } = (await (await fetch("/api/auth/csrf", { cache: "no-store" })).json()) as { csrfToken: string };
  const res = await fetch("/api/auth/signout", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1" },
    body: new URLSearchParams({ csrfToken, callbackUrl: "/sign-in", json: "true" }),
  });
  if (!res.ok) throw new Error(`sign-out answered ${res.status}`);
}

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
        const done = await signOut().then(
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
