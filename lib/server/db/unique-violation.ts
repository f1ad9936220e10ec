import "server-only";
import type { AppError } from "@/lib/domain/outcome";
import type { Tx } from "@/lib/server/db/client";
import { Prisma } from "@/lib/server/db/generated/client";
import { transaction } from "./transaction";

/** Whether a write failed on a unique constraint (Prisma's P2002; `meta` names the constraint's fields). */
export function isUniqueViolation(error: unknown): error is Prisma.PrismaClientKnownRequestError {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

/**
 * Runs `write` in one transaction; when it fails on a unique constraint (a slug, name or email taken meanwhile,
 * even by a parallel request), nothing is written and the caller's refusal is thrown instead (`taken`, usually a
 * `takenError` naming the field). Any other error passes through.
 */
export async function transactionUnlessTaken<T>(
  write: (tx: Tx) => Promise<T>,
  taken: (error: Prisma.PrismaClientKnownRequestError) => AppError,
  limits?: Parameters<typeof transaction>[1],
): Promise<T> {
  try {
    return await transaction(write, limits);
  } catch (error) {
    if (isUniqueViolation(error)) throw taken(error);
    throw error;
  }
}
