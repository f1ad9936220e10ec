import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  EMPTY_ROOT,
  appendLeaves,
  consistencyProof,
  frontierRefs,
  frontierRoot,
  getterOf,
  inclusionProof,
  leafHash,
  merkleRoot,
  neededNodes,
  nodeHash,
  rootOf,
  verifyConsistency,
  verifyInclusion,
  type Frontier,
  type Hex,
  type NodeGetter,
  type StoredNode,
} from "./merkle";

// RFC 6962 / 9162 reference test data (the Certificate Transparency test vectors): eight leaf inputs and the
// root of every prefix of them.
const INPUTS = ["", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"];
const ROOTS = [
  "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
  "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
  "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
  "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
  "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
  "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
  "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
  "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
];

const leavesOf = (n: number): Hex[] => Array.from({ length: n }, (_, i) => leafHash(Buffer.from(`leaf-${i}`)));

// Naive references written straight from the RFC's recursive definitions over the leaf list.
const mth = (l: Hex[]): Hex => merkleRoot(l);
function naivePath(m: number, d: Hex[]): Hex[] {
  if (d.length <= 1) return [];
  let k = 1;
  while (k * 2 < d.length) k *= 2;
  return m < k
    ? [...naivePath(m, d.slice(0, k)), mth(d.slice(k))]
    : [...naivePath(m - k, d.slice(k)), mth(d.slice(0, k))];
}
function naiveSubproof(m: number, d: Hex[], start: boolean): Hex[] {
  if (m === d.length) return start ? [] : [mth(d)];
  let k = 1;
  while (k * 2 < d.length) k *= 2;
  return m <= k
    ? [...naiveSubproof(m, d.slice(0, k), start), mth(d.slice(k))]
    : [...naiveSubproof(m - k, d.slice(k), false), mth(d.slice(0, k))];
}
/** A getter that computes perfect subtrees from the leaves (as the database stores them). */
const naiveGetter =
  (l: Hex[]): NodeGetter =>
  (level, index) => {
    const w = 2 ** level;
    expect(index * w + w).toBeLessThanOrEqual(l.length);
    return mth(l.slice(index * w, index * w + w));
  };

describe("RFC 9162 hashing", () => {
  it("the empty tree is SHA-256 of nothing; leaves and nodes have distinct prefixes", () => {
    expect(EMPTY_ROOT).toBe(createHash("sha256").digest("hex"));
    expect(merkleRoot([])).toBe(EMPTY_ROOT);
    expect(leafHash(Buffer.alloc(0))).toBe(
      createHash("sha256")
        .update(Buffer.from([0]))
        .digest("hex"),
    );
    const a = leafHash("a");
    const b = leafHash("b");
    expect(nodeHash(a, b)).toBe(
      createHash("sha256")
        .update(Buffer.concat([Buffer.from([1]), Buffer.from(a, "hex"), Buffer.from(b, "hex")]))
        .digest("hex"),
    );
    // A node is never taken for a leaf over the same bytes (second-preimage resistance of the prefixes).
    expect(leafHash(Buffer.concat([Buffer.from(a, "hex"), Buffer.from(b, "hex")]))).not.toBe(nodeHash(a, b));
  });

  it("matches the published test vector roots for every prefix of the eight leaves", () => {
    const leaves = INPUTS.map((h) => leafHash(Buffer.from(h, "hex")));
    for (let n = 1; n <= 8; n++) {
      expect(merkleRoot(leaves.slice(0, n))).toBe(ROOTS[n - 1]);
      expect(rootOf(n, naiveGetter(leaves))).toBe(ROOTS[n - 1]);
    }
  });
});

describe("frontier appends", () => {
  it("the incremental root equals the reference root at every size, in any batch split", () => {
    const leaves = leavesOf(70);
    for (const batch of [1, 3, 7, 64]) {
      let f: Frontier = { size: 0, nodes: [] };
      const stored = new Map<string, Hex>();
      for (let i = 0; i < leaves.length; i += batch) {
        const r = appendLeaves(f, leaves.slice(i, i + batch));
        for (const n of r.created) stored.set(`${n.level}:${n.index}`, n.hash);
        f = r.frontier;
        expect(frontierRoot(f)).toBe(merkleRoot(leaves.slice(0, f.size)));
        // The frontier is exactly the stored nodes named by frontierRefs, so a sequencer can reload it.
        expect(f.nodes.map((n) => ({ level: n.level, index: n.index }))).toEqual(frontierRefs(f.size));
        for (const n of f.nodes) expect(stored.get(`${n.level}:${n.index}`)).toBe(n.hash);
      }
      // Every stored node is the true perfect subtree hash.
      for (const [key, hash] of stored) {
        const [level, index] = key.split(":").map(Number) as [number, number];
        expect(hash).toBe(naiveGetter(leaves)(level, index));
      }
    }
  });
});

describe("inclusion proofs", () => {
  const leaves = leavesOf(40);
  const get = naiveGetter(leaves);

  it("equal the RFC's PATH and verify for every leaf of every tree size up to 40", () => {
    for (let n = 1; n <= 40; n++) {
      const root = merkleRoot(leaves.slice(0, n));
      for (let m = 0; m < n; m++) {
        const proof = inclusionProof(m, n, get);
        expect(proof).toEqual(naivePath(m, leaves.slice(0, n)));
        expect(verifyInclusion(m, n, leaves[m]!, proof, root)).toBe(true);
      }
    }
  });

  it("fail for a wrong leaf, index, size, root, or a changed, shortened or lengthened path", () => {
    const n = 37;
    const root = merkleRoot(leaves.slice(0, n));
    for (const m of [0, 5, 16, 31, 32, 36]) {
      const proof = inclusionProof(m, n, get);
      expect(verifyInclusion(m, n, leaves[m + 1 === n ? 0 : m + 1]!, proof, root)).toBe(false);
      expect(verifyInclusion(m ^ 1, n, leaves[m]!, proof, root)).toBe(false);
      expect(verifyInclusion(m, n * 2, leaves[m]!, proof, root)).toBe(false);
      expect(verifyInclusion(m, n, leaves[m]!, proof, merkleRoot(leaves.slice(0, n - 1)))).toBe(false);
      expect(verifyInclusion(m, n, leaves[m]!, proof.slice(1), root)).toBe(false);
      expect(verifyInclusion(m, n, leaves[m]!, [...proof, proof[0]!], root)).toBe(false);
      const bent = [...proof];
      bent[0] = leafHash("x");
      expect(verifyInclusion(m, n, leaves[m]!, bent, root)).toBe(false);
    }
    expect(verifyInclusion(n, n, leaves[0]!, [], root)).toBe(false);
    expect(verifyInclusion(-1, n, leaves[0]!, [], root)).toBe(false);
    expect(() => inclusionProof(5, 5, get)).toThrow(RangeError);
  });

  it("a single-leaf tree: empty path, the root is the leaf", () => {
    expect(inclusionProof(0, 1, get)).toEqual([]);
    expect(verifyInclusion(0, 1, leaves[0]!, [], leaves[0]!)).toBe(true);
  });
});

describe("consistency proofs", () => {
  const leaves = leavesOf(40);
  const get = naiveGetter(leaves);

  it("equal the RFC's PROOF and verify for every pair of sizes up to 40", () => {
    for (let n = 1; n <= 40; n++) {
      const second = merkleRoot(leaves.slice(0, n));
      for (let m = 0; m <= n; m++) {
        const first = merkleRoot(leaves.slice(0, m));
        const proof = consistencyProof(m, n, get);
        expect(proof).toEqual(m === 0 || m === n ? [] : naiveSubproof(m, leaves.slice(0, n), true));
        expect(verifyConsistency(m, n, first, second, proof)).toBe(true);
      }
    }
  });

  it("fail when history was rewritten, roots swapped, sizes wrong or the path changed", () => {
    const rewritten = [...leaves];
    rewritten[3] = leafHash("rewritten");
    for (const [m, n] of [
      [1, 2],
      [3, 7],
      [4, 8],
      [5, 33],
      [16, 40],
      [31, 32],
    ] as const) {
      const first = merkleRoot(leaves.slice(0, m));
      const second = merkleRoot(leaves.slice(0, n));
      const proof = consistencyProof(m, n, get);
      // The later tree rewrote an early leaf: no proof from the honest first tree reaches its root.
      const forged = merkleRoot(rewritten.slice(0, n));
      if (m > 3)
        expect(verifyConsistency(m, n, first, forged, consistencyProof(m, n, naiveGetter(rewritten)))).toBe(false);
      if (n > 3) expect(verifyConsistency(m, n, first, forged, proof)).toBe(false);
      expect(verifyConsistency(m, n, second, first, proof)).toBe(false);
      expect(verifyConsistency(m, n * 2, first, second, proof)).toBe(false);
      expect(verifyConsistency(m, n, first, second, proof.slice(0, -1))).toBe(false);
      expect(verifyConsistency(m, n, first, second, [...proof, proof[0]!])).toBe(false);
      expect(verifyConsistency(m, n, first, second, [])).toBe(false);
    }
    expect(verifyConsistency(5, 4, EMPTY_ROOT, EMPTY_ROOT, [])).toBe(false);
    expect(verifyConsistency(4, 4, merkleRoot(leaves.slice(0, 4)), merkleRoot(leaves.slice(0, 4)), [])).toBe(true);
    expect(verifyConsistency(4, 4, merkleRoot(leaves.slice(0, 4)), merkleRoot(rewritten.slice(0, 4)), [])).toBe(false);
  });
});

describe("stored-node access", () => {
  it("neededNodes names exactly what a proof reads; getterOf serves them and refuses others", () => {
    const leaves = leavesOf(27);
    const get = naiveGetter(leaves);
    const refs = neededNodes((g) => [inclusionProof(9, 27, g), consistencyProof(11, 27, g), rootOf(27, g)]);
    const nodes: StoredNode[] = refs.map((r) => ({ ...r, hash: get(r.level, r.index) }));
    const served = getterOf(nodes);
    expect(inclusionProof(9, 27, served)).toEqual(inclusionProof(9, 27, get));
    expect(consistencyProof(11, 27, served)).toEqual(consistencyProof(11, 27, get));
    expect(rootOf(27, served)).toBe(merkleRoot(leaves));
    expect(() => inclusionProof(0, 27, getterOf(nodes.slice(1)))).toThrow(/missing/);
  });
});
