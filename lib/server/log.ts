import "server-only";
import pino from "pino";
import { logLevel } from "@/lib/server/env";

// Structured JSON logs. Anything that looks like a credential is censored by path, whatever the
// caller passes; callers still never pass request bodies or headers wholesale.
export const log = pino({
  level: logLevel,
  base: { service: "approval-gateway" },
  redact: {
    paths: [
      "password",
      "*.password",
      "token",
      "*.token",
      "secret",
      "*.secret",
      "authorization",
      "*.authorization",
      "headers.authorization",
      "headers.cookie",
      "*.headers.authorization",
      "*.headers.cookie",
      "cookie",
      "apiKey",
      "*.apiKey",
      "endUserToken",
      "*.endUserToken",
    ],
    censor: "[redacted]",
  },
});
