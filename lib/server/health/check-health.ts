import "server-only";
import { db } from "@/lib/server/db/client";
import { log } from "@/lib/server/log";

export type Health = { status: "ok" | "degraded"; checks: { app: "ok"; database: "ok" | "unreachable" }; time: string };

export async function checkHealth(): Promise<Health> {
  let database: Health["checks"]["database"] = "ok";
  try {
    await db().$queryRaw`SELECT 1`;
  } catch (error) {
    database = "unreachable";
    log.error({ err: error instanceof Error ? error.message : String(error) }, "health: database unreachable");
  }
  return { status: database === "ok" ? "ok" : "degraded", checks: { app: "ok", database }, time: new Date().toISOString() };
}
