import "server-only";
import { keyStatus } from "@/lib/domain/key-status";

/** The columns every list of issued keys (agent keys, integration keys) reads: never the hash. */
export const keyListColumns = {
  id: true,
  name: true,
  keyPrefix: true,
  expiresAt: true,
  revokedAt: true,
  lastUsedAt: true,
  createdAt: true,
} as const;

type KeyListRow = {
  id: string;
  name: string;
  keyPrefix: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
};

/** One issued key as the lists show it: its name as `label`, and what it is worth now (`status`). */
export function keyListEntry(k: KeyListRow, now: Date) {
  return {
    id: k.id,
    label: k.name,
    keyPrefix: k.keyPrefix,
    status: keyStatus(k, now),
    revokedAt: k.revokedAt,
    expiresAt: k.expiresAt,
    lastUsedAt: k.lastUsedAt,
    createdAt: k.createdAt,
  };
}
