// The refusals of the Merkle proof functions on inputs outside a tree (found unchecked by mutation testing,
// npm run test:mutation): a proof for a position that does not exist is refused, never "verified".
import { describe, expect, it } from "vitest";
import {
  EMPTY_ROOT,
  appendLeaves,
  consistencyProof,
  frontierRoot,
  inclusionProof,
  leafHash,
  nodeHash,
  rootOf,
  verifyConsistency,
  verifyInclusion,
} from "./merkle";

// A getter that never fails: only the functions' own guards can refuse.
const anyNode = () => EMPTY_ROOT;
const leaf = leafHash("leaf");
const c = leafHash("c");

describe("proof builders", () => {
  it("name the position that is not in the tree", () => {
    expect(() => inclusionProof(5, 5, anyNode)).toThrow(new RangeError("leaf 5 is not in a tree of size 5"));
    expect(() => inclusionProof(-1, 5, anyNode)).toThrow(new RangeError("leaf -1 is not in a tree of size 5"));
    expect(inclusionProof(4, 5, anyNode)).toHaveLength(1);
    expect(() => consistencyProof(5, 4, anyNode)).toThrow(new RangeError("no consistency proof from 5 to 4"));
    expect(() => consistencyProof(-1, 4, anyNode)).toThrow(new RangeError("no consistency proof from -1 to 4"));
    expect(consistencyProof(4, 4, anyNode)).toEqual([]);
    expect(consistencyProof(0, 4, anyNode)).toEqual([]);
  });
  it("the root of no leaves is the empty root, from a getter or a frontier", () => {
    expect(rootOf(0, () => leaf)).toBe(EMPTY_ROOT);
    expect(frontierRoot({ size: 0, nodes: [] })).toBe(EMPTY_ROOT);
  });
  it("appending grows the frontier by each leaf", () => {
    const { frontier, created } = appendLeaves({ size: 0, nodes: [] }, [leaf, c, leaf]);
    expect(frontier.size).toBe(3);
    expect(created.map((n) => [n.level, n.index])).toEqual([
      [0, 0],
      [0, 1],
      [1, 0],
      [0, 2],
    ]);
    expect(frontierRoot(frontier)).toBe(nodeHash(nodeHash(leaf, c), leaf));
  });
});

describe("verifyInclusion refuses positions outside the tree", () => {
  it("an index at or past the size, negative or fractional, or a fractional size", () => {
    // Each of these would verify if the guard were gone.
    expect(verifyInclusion(0, 1, leaf, [], leaf)).toBe(true);
    expect(verifyInclusion(1, 1, leaf, [], leaf)).toBe(false);
    expect(verifyInclusion(-1, 1, leaf, [], leaf)).toBe(false);
    expect(verifyInclusion(0.5, 1, leaf, [], leaf)).toBe(false);
    expect(verifyInclusion(0, 2, leaf, [c], nodeHash(leaf, c))).toBe(true);
    expect(verifyInclusion(0, 2.5, leaf, [c], nodeHash(leaf, c))).toBe(false);
  });
});

describe("verifyConsistency refuses sizes that cannot be", () => {
  const r1 = leafHash("r1");
  it("a fractional or negative first size, a fractional second, a first past the second", () => {
    expect(verifyConsistency(1, 2, r1, nodeHash(r1, c), [c])).toBe(true);
    // Each of these would verify if the guard were gone.
    expect(verifyConsistency(1.5, 2, r1, nodeHash(r1, c), [c])).toBe(false);
    expect(verifyConsistency(1, 2.5, r1, nodeHash(r1, c), [c])).toBe(false);
    expect(verifyConsistency(-1, 1, c, c, [c])).toBe(false);
    expect(verifyConsistency(3, 2, r1, nodeHash(r1, c), [r1, c])).toBe(false);
  });
  it("equal sizes need an empty proof and equal roots; size 0 an empty proof and the empty root", () => {
    expect(verifyConsistency(4, 4, r1, r1, [])).toBe(true);
    expect(verifyConsistency(4, 4, r1, r1, [c])).toBe(false);
    expect(verifyConsistency(4, 4, r1, c, [])).toBe(false);
    expect(verifyConsistency(0, 4, EMPTY_ROOT, r1, [])).toBe(true);
    expect(verifyConsistency(0, 4, EMPTY_ROOT, r1, [c])).toBe(false);
    expect(verifyConsistency(0, 4, r1, r1, [])).toBe(false);
  });
});
