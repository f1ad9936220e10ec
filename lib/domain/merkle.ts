// RFC 9162 (Certificate Transparency v2) Merkle tree hashing, proofs and their verification, as pure code.
// The server, `npm run audit:verify` and the offline evidence-pack verifier use the same functions.
//
//   leaf hash  = SHA-256(0x00 || leaf data)
//   node hash  = SHA-256(0x01 || left || right)
//   MTH(D[n])  = the RFC's recursive split at the largest power of two smaller than n.
//
// Hashes travel as lowercase hex. Storage keeps only perfect subtrees ("nodes": level L, index i covers
// leaves [i·2^L, (i+1)·2^L)), as Trillian does; any other subtree hash is computed from them, so a proof
// needs O(log² n) stored hashes. `neededNodes` says which, so a caller fetches them in one query.
import { createHash } from "node:crypto";

export type Hex = string;

// A string part is hashed as its UTF-8 bytes.
const sha = (...parts: (Buffer | string)[]) => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest();
};
const LEAF = Buffer.from([0]);
const NODE = Buffer.from([1]);
const buf = (h: Hex) => Buffer.from(h, "hex");

/** SHA-256 of the empty string: the root of the empty tree. */
export const EMPTY_ROOT: Hex = sha().toString("hex");

export function leafHash(data: Buffer | string): Hex {
  return sha(LEAF, data).toString("hex");
}

export function nodeHash(left: Hex, right: Hex): Hex {
  return sha(NODE, buf(left), buf(right)).toString("hex");
}

/** Largest power of two strictly smaller than n (n ≥ 2). */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** For n ≥ 1 (every caller: subtree sizes and a non-empty first tree). */
const isPow2 = (n: number) => (n & (n - 1)) === 0;
const log2 = (n: number) => Math.round(Math.log2(n));

/** MTH over leaf hashes, straight from the RFC's definition (the reference; O(n)). */
export function merkleRoot(leaves: readonly Hex[]): Hex {
  if (leaves.length === 0) return EMPTY_ROOT;
  const mth = (a: number, b: number): Hex => {
    if (b - a === 1) return leaves[a]!;
    const k = splitPoint(b - a);
    return nodeHash(mth(a, a + k), mth(a + k, b));
  };
  return mth(0, leaves.length);
}

/** A stored perfect subtree: level 0 is a leaf. */
export type NodeRef = { level: number; index: number };
export type StoredNode = NodeRef & { hash: Hex };
export type NodeGetter = (level: number, index: number) => Hex;

/** MTH(D[a:b]) from perfect subtrees only. */
function rangeHash(a: number, b: number, get: NodeGetter): Hex {
  const n = b - a;
  // (The RFC split only ever yields aligned perfect subtrees; the alignment test states the invariant.)
  // Stryker disable next-line ConditionalExpression: every power-of-two range reached here is aligned.
  if (isPow2(n) && a % n === 0) return get(log2(n), a / n);
  const k = splitPoint(n);
  return nodeHash(rangeHash(a, a + k, get), rangeHash(a + k, b, get));
}

function pathOf(m: number, a: number, b: number, get: NodeGetter): Hex[] {
  if (b - a <= 1) return [];
  const k = splitPoint(b - a);
  return m - a < k
    ? [...pathOf(m, a, a + k, get), rangeHash(a + k, b, get)]
    : [...pathOf(m, a + k, b, get), rangeHash(a, a + k, get)];
}

/** RFC 9162 §2.1.3.1: the inclusion proof of leaf `index` in the tree of `size` leaves. */
export function inclusionProof(index: number, size: number, get: NodeGetter): Hex[] {
  if (!(index >= 0 && index < size)) throw new RangeError(`leaf ${index} is not in a tree of size ${size}`);
  return pathOf(index, 0, size, get);
}

function subproof(m: number, a: number, b: number, start: boolean, get: NodeGetter): Hex[] {
  const n = b - a;
  if (m === n) return start ? [] : [rangeHash(a, b, get)];
  const k = splitPoint(n);
  return m <= k
    ? [...subproof(m, a, a + k, start, get), rangeHash(a + k, b, get)]
    : [...subproof(m - k, a + k, b, false, get), rangeHash(a, a + k, get)];
}

/** RFC 9162 §2.1.4.1: the consistency proof between the trees of `first` and `second` leaves. */
export function consistencyProof(first: number, second: number, get: NodeGetter): Hex[] {
  if (!(first >= 0 && first <= second)) throw new RangeError(`no consistency proof from ${first} to ${second}`);
  if (first === 0) return [];
  return subproof(first, 0, second, true, get); // first === second: subproof answers [] at once
}

/** The root of a tree of `size` leaves from its perfect subtrees. */
export function rootOf(size: number, get: NodeGetter): Hex {
  return size === 0 ? EMPTY_ROOT : rangeHash(0, size, get);
}

/** The stored nodes `run` reads (it must not depend on the hash values, which these functions don't). */
export function neededNodes(run: (get: NodeGetter) => unknown): NodeRef[] {
  const seen = new Map<string, NodeRef>();
  run((level, index) => {
    seen.set(`${level}:${index}`, { level, index });
    return EMPTY_ROOT;
  });
  return [...seen.values()];
}

/** A getter over fetched nodes that fails loudly on a missing one. */
export function getterOf(nodes: readonly StoredNode[]): NodeGetter {
  const map = new Map(nodes.map((n) => [`${n.level}:${n.index}`, n.hash]));
  return (level, index) => {
    const h = map.get(`${level}:${index}`);
    if (h === undefined) throw new Error(`Merkle node ${level}:${index} is missing`);
    return h;
  };
}

/**
 * The walk RFC 9162 §2.1.3.2 and §2.1.4.2 share: from node `fn` of a tree whose last node is `sn`, for each of
 * `steps` proof elements, whether it is hashed on the left of the running hash (true) or on its right (false),
 * and `sn` at the end (0 when the path reached the root). Null when the path is longer than the tree is high.
 */
function proofWalk(fn: number, sn: number, steps: number): { left: boolean[]; sn: number } | null {
  const left: boolean[] = [];
  for (let i = 0; i < steps; i++) {
    // Stryker disable next-line ConditionalExpression: RFC 9162 early stop; an over-long path changes the running hash, so the root check fails anyway.
    if (sn === 0) return null;
    const onLeft = fn % 2 === 1 || fn === sn;
    left.push(onLeft);
    if (onLeft) {
      // (fn is not 0 here: fn === sn would be 0, which stopped above; halving an even fn ends odd before 0.)
      // Stryker disable next-line ConditionalExpression: see above, the RFC's "fn is 0" test never decides.
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return { left, sn };
}

/** RFC 9162 §2.1.3.2: does `proof` show the leaf `leaf` at `index` in the tree of `size` with `root`? */
export function verifyInclusion(index: number, size: number, leaf: Hex, proof: readonly Hex[], root: Hex): boolean {
  if (!(Number.isInteger(index) && Number.isInteger(size) && index >= 0 && index < size)) return false;
  const walk = proofWalk(index, size - 1, proof.length);
  if (!walk) return false;
  const r = proof.reduce((h, p, i) => (walk.left[i] ? nodeHash(p, h) : nodeHash(h, p)), leaf);
  return walk.sn === 0 && r === root;
}

/** RFC 9162 §2.1.4.2: does `proof` show the tree (`second`, `secondRoot`) extends (`first`, `firstRoot`)? */
export function verifyConsistency(
  first: number,
  second: number,
  firstRoot: Hex,
  secondRoot: Hex,
  proof: readonly Hex[],
): boolean {
  if (!(Number.isInteger(first) && Number.isInteger(second) && first >= 0 && first <= second)) return false;
  if (first === second) return proof.length === 0 && firstRoot === secondRoot;
  if (first === 0) return proof.length === 0 && firstRoot === EMPTY_ROOT;
  // Stryker disable next-line ConditionalExpression: RFC 9162 step; an empty path fails the final checks too (no fr, or sn > 0).
  if (proof.length === 0) return false;
  const path = isPow2(first) ? [firstRoot, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  const walk = proofWalk(fn, sn, path.length - 1);
  if (!walk) return false;
  let fr = path[0]!;
  let sr = path[0]!;
  path.slice(1).forEach((c, i) => {
    if (walk.left[i]) fr = nodeHash(c, fr);
    sr = walk.left[i] ? nodeHash(c, sr) : nodeHash(sr, c);
  });
  return fr === firstRoot && sr === secondRoot && walk.sn === 0;
}

/**
 * The right edge of a tree (a "compact range" from 0): the perfect subtrees of its binary decomposition,
 * largest first. Appending a leaf merges equal-sized subtrees like a binary counter; every merge creates a
 * new perfect node to store. The root folds the edge from the right.
 */
export type Frontier = { size: number; nodes: StoredNode[] };

/** The stored nodes that make up the frontier of a tree of `size` leaves. */
export function frontierRefs(size: number): NodeRef[] {
  const refs: NodeRef[] = [];
  let offset = 0;
  for (let level = 31; level >= 0; level--) {
    const width = 2 ** level;
    if (size & width) {
      refs.push({ level, index: offset / width });
      offset += width;
    }
  }
  return refs;
}

/** Appends leaves; returns the new frontier and every perfect node completed on the way (leaves included). */
export function appendLeaves(
  frontier: Frontier,
  leaves: readonly Hex[],
): { frontier: Frontier; created: StoredNode[] } {
  const stack = [...frontier.nodes];
  const created: StoredNode[] = [];
  let size = frontier.size;
  for (const leaf of leaves) {
    let node: StoredNode = { level: 0, index: size, hash: leaf };
    created.push(node);
    while (stack.length && stack[stack.length - 1]!.level === node.level) {
      const left = stack.pop()!;
      node = { level: node.level + 1, index: left.index / 2, hash: nodeHash(left.hash, node.hash) };
      created.push(node);
    }
    stack.push(node);
    size += 1;
  }
  return { frontier: { size, nodes: stack }, created };
}

export function frontierRoot(frontier: Frontier): Hex {
  const n = frontier.nodes;
  if (n.length === 0) return EMPTY_ROOT;
  let r = n[n.length - 1]!.hash;
  for (let i = n.length - 2; i >= 0; i--) r = nodeHash(n[i]!.hash, r);
  return r;
}
