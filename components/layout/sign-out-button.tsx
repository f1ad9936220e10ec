"use client";

import { signOut } from "next-auth/react";
import { useState } from "react";

export function SignOutButton({ label }: { label: string }) {
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      className="secondary"
      disabled={pending}
      onClick={async () => {
        setPending(true);
        await signOut({ redirect: false });
        window.location.assign("/sign-in");
      }}
    >
      {label}
    </button>
  );
}
