// A user agent as the confirmation keeps it (docs/agent-api.md, "Customer confirmation"): the browser's family and
// the operating system only — "Safari on iOS" — never the versions, device model or build strings that narrow a
// person down. Pure; anything not recognised is "other".

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\bOPR\/|\bOpera\b/, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\bChrome\/|\bCriOS\/|\bChromium\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\/|\bSafari\/.*\bMobile\b/, "Safari"],
];
const SYSTEMS: [RegExp, string][] = [
  [/\biPhone|\biPad|\biPod/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

/** "Chrome on Android", "Safari on iOS", "other on other"; null for no user agent at all. */
export function redactUserAgent(ua: string | null | undefined): string | null {
  if (!ua) return null;
  const text = ua.slice(0, 1000);
  const browser = BROWSERS.find(([re]) => re.test(text))?.[1] ?? "other";
  const system = SYSTEMS.find(([re]) => re.test(text))?.[1] ?? "other";
  return `${browser} on ${system}`;
}
