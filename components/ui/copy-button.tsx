"use client";

import { useState } from "react";
import { Check, Copy } from "lucide-react";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";

/** Copies `value` to the clipboard; the button says so for two seconds. `label` names what is copied. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const t = useTranslations("copy");
  const [done, setDone] = useState(false);
  return (
    <Button
      type="button"
      variant="ghost"
      size="icon-xs"
      aria-label={done ? t("copied") : t("copy", { what: label })}
      title={done ? t("copied") : t("copy", { what: label })}
      data-copy={value}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          setDone(true);
          setTimeout(() => setDone(false), 2000);
        } catch {
          setDone(false);
        }
      }}
    >
      {done ? <Check aria-hidden /> : <Copy aria-hidden />}
    </Button>
  );
}
