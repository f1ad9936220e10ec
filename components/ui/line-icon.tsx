import type { ComponentProps, ReactNode } from "react";
import { cn } from "@/lib/utils";

/**
 * An icon as plain SVG, drawn the way lucide-react draws its icons (paths from https://lucide.dev, ISC
 * licence). For icons on every page's first load: lucide-react's Icon is a client component ("use client",
 * for its context), so even icons rendered by the server ship its runtime (bench:ui).
 */
export function LineIcon({ name, className, children, ...props }: ComponentProps<"svg"> & { name: string }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={24}
      height={24}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={cn(`lucide lucide-${name}`, className)}
      aria-hidden="true"
      {...props}
    >
      {children}
    </svg>
  );
}

/** A named icon component from lucide's drawing (`paths`). */
export function lineIcon(name: string, paths: ReactNode) {
  function Icon({ className }: { className?: string }) {
    return (
      <LineIcon name={name} className={className}>
        {paths}
      </LineIcon>
    );
  }
  Icon.displayName = `LineIcon(${name})`;
  return Icon;
}
