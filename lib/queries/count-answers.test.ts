// The shell's hand checks (count-answers.ts) must accept exactly what the zod DTOs accept, for the fields the
// shell reads: the same samples go through both.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { pendingCountDto } from "@/lib/schemas/proposal-dto";
import { inboxDto } from "@/lib/schemas/inbox-dto";
import { readInboxCount, readPendingCount } from "./count-answers";

const inbox = (count: unknown) => ({ count, secondApprovals: null, pending: null, adminChanges: null, inDoubt: null });
const counts: unknown[] = [
  0,
  1,
  7,
  500,
  Number.MAX_SAFE_INTEGER,
  -1,
  1.5,
  Number.MAX_SAFE_INTEGER + 1,
  NaN,
  Infinity,
  "3",
  null,
  undefined,
  true,
];

describe("readPendingCount agrees with pendingCountDto", () => {
  const samples: unknown[] = [
    ...counts.flatMap((count) => [
      { count, capped: false },
      { count, capped: true },
    ]),
    { count: 3, capped: "false" },
    { count: 3 },
    { capped: true },
    null,
    [],
    "3",
    42,
  ];
  for (const body of samples) {
    it(`${JSON.stringify(body) ?? String(body)}`, () => {
      const zod = pendingCountDto.safeParse(body);
      const mine = readPendingCount(body);
      expect(mine !== null).toBe(zod.success);
      if (zod.success) expect(mine).toEqual({ count: zod.data.count, capped: zod.data.capped });
    });
  }
});

describe("readInboxCount agrees with inboxDto on the count", () => {
  for (const count of counts) {
    it(`count ${String(count)}`, () => {
      const zod = inboxDto.safeParse(inbox(count));
      const mine = readInboxCount(inbox(count));
      expect(mine !== null).toBe(zod.success);
      if (zod.success) expect(mine).toBe(zod.data.count);
    });
  }
  it("refuses what is not an object", () => {
    for (const body of [null, undefined, 3, "x", []]) expect(readInboxCount(body)).toBeNull();
  });
});

describe("the shell's count readers load no zod, not even on demand", () => {
  // They run as soon as the change stream opens, on every page: a lazy import() there is first-load JavaScript.
  const root = resolve(__dirname, "../..");
  for (const file of ["lib/queries/queue-count.ts", "lib/queries/inbox-count.ts", "lib/queries/count-answers.ts"]) {
    it(file, () => {
      const source = readFileSync(join(root, file), "utf8");
      expect(source).not.toMatch(/(from |import\()\s*"(zod|@\/lib\/schemas\/)/);
    });
  }
});
