// Light/dark theme on the `dark`/`light` class of <html> (and its color-scheme), the person's choice kept in
// localStorage ("theme": light, dark or system; absent = follow the system). Written here instead of using
// next-themes (~1.3 KiB gzip on every page's first load, bench:ui): the only parts needed are this store and
// the no-flash script (theme-script.tsx), which must apply the same rule before the first paint.

export const THEME_KEY = "theme";
export const themes = ["light", "dark", "system"] as const;
export type Theme = (typeof themes)[number];

const DARK_QUERY = "(prefers-color-scheme: dark)";
const watchers = new Set<() => void>();

export function readTheme(): Theme {
  try {
    const stored = localStorage.getItem(THEME_KEY);
    return stored === "light" || stored === "dark" ? stored : "system";
  } catch {
    return "system"; // storage blocked: follow the system
  }
}

/** Puts the theme on <html>, with transitions off for that moment (no colours sliding across the page). */
function apply(theme: Theme) {
  const dark = theme === "dark" || (theme === "system" && matchMedia(DARK_QUERY).matches);
  const root = document.documentElement;
  const pause = document.createElement("style");
  pause.textContent = "*,*::before,*::after{transition:none!important}";
  document.head.appendChild(pause);
  root.classList.toggle("dark", dark);
  root.classList.toggle("light", !dark);
  root.style.colorScheme = dark ? "dark" : "light";
  void getComputedStyle(document.body).opacity; // flush styles before transitions come back
  setTimeout(() => pause.remove(), 1);
}

const notify = () => {
  apply(readTheme());
  for (const w of watchers) w();
};

export function setTheme(theme: Theme): void {
  try {
    if (theme === "system") localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, theme);
  } catch {
    /* storage blocked: the choice lasts for this page */
  }
  apply(theme);
  for (const w of watchers) w();
}

let systemScheme: MediaQueryList | null = null;

/**
 * For useSyncExternalStore: the system's scheme (while following it) and other tabs' choices apply here too.
 * The first subscriber applies the theme again: the system's scheme (or another tab's choice) may have changed
 * between the inline script (theme-script.tsx, before the first paint) and hydration, when nothing listened yet.
 */
export function subscribeTheme(watcher: () => void): () => void {
  watchers.add(watcher);
  if (watchers.size === 1) {
    systemScheme = matchMedia(DARK_QUERY); // kept: the listener comes off the same list it went on
    systemScheme.addEventListener("change", notify);
    window.addEventListener("storage", onStorage);
    notify();
  }
  return () => {
    watchers.delete(watcher);
    if (watchers.size) return;
    systemScheme?.removeEventListener("change", notify);
    systemScheme = null;
    window.removeEventListener("storage", onStorage);
  };
}

function onStorage(e: StorageEvent) {
  if (e.key === THEME_KEY || e.key === null) notify();
}
