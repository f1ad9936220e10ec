import { THEME_KEY } from "./theme";

// The same rule as theme.ts's apply(), run before the first paint (a dark-mode reader never sees a white
// flash). Inline, so it carries the response's CSP nonce.
const script = `(function(){try{var t=localStorage.getItem(${JSON.stringify(THEME_KEY)});var d=t==="dark"||(t!=="light"&&matchMedia("(prefers-color-scheme: dark)").matches);var r=document.documentElement;r.classList.toggle("dark",d);r.classList.toggle("light",!d);r.style.colorScheme=d?"dark":"light"}catch(e){}})()`;

/** Server-rendered at the top of <body> by the root layout. */
export function ThemeScript({ nonce }: { nonce?: string }) {
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: script }} />;
}
