// The shell's five icons as plain SVG, rendered by the server. lucide-react's Icon is a client component
// ("use client", for its context), so even icons rendered in server components ship its runtime; the shell
// is on every page's first load (bench:ui), so its icons are inlined here instead. Paths from lucide
// (https://lucide.dev, ISC licence), drawn the way lucide-react draws them.
import type { ReactNode } from "react";

function Svg({ name, className, children }: { name: string; className?: string; children: ReactNode }) {
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
      className={`lucide lucide-${name}${className ? ` ${className}` : ""}`}
      aria-hidden="true"
    >
      {children}
    </svg>
  );
}

export const MenuIcon = ({ className }: { className?: string }) => (
  <Svg name="menu" className={className}>
    <path d="M4 5h16" />
    <path d="M4 12h16" />
    <path d="M4 19h16" />
  </Svg>
);

export const SearchIcon = ({ className }: { className?: string }) => (
  <Svg name="search" className={className}>
    <path d="m21 21-4.34-4.34" />
    <circle cx="11" cy="11" r="8" />
  </Svg>
);

export const SunIcon = ({ className }: { className?: string }) => (
  <Svg name="sun" className={className}>
    <circle cx="12" cy="12" r="4" />
    <path d="M12 2v2" />
    <path d="M12 20v2" />
    <path d="m4.93 4.93 1.41 1.41" />
    <path d="m17.66 17.66 1.41 1.41" />
    <path d="M2 12h2" />
    <path d="M20 12h2" />
    <path d="m6.34 17.66-1.41 1.41" />
    <path d="m19.07 4.93-1.41 1.41" />
  </Svg>
);

export const MoonIcon = ({ className }: { className?: string }) => (
  <Svg name="moon" className={className}>
    <path d="M20.985 12.486a9 9 0 1 1-9.473-9.472c.405-.022.617.46.402.803a6 6 0 0 0 8.268 8.268c.344-.215.825-.004.803.401" />
  </Svg>
);

export const MonitorIcon = ({ className }: { className?: string }) => (
  <Svg name="monitor" className={className}>
    <rect width="20" height="14" x="2" y="3" rx="2" />
    <line x1="8" x2="16" y1="21" y2="21" />
    <line x1="12" x2="12" y1="17" y2="21" />
  </Svg>
);
