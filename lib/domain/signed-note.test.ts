// C2SP signed notes, checkpoints and cosignatures: the specification's own test vector, round trips, and
// each way a note, a vkey or a checkpoint is refused.
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  SIG_COSIGNATURE_V1,
  SIG_ED25519,
  checkpointText,
  cosign,
  cosignatureTime,
  parseCheckpointText,
  parseNote,
  parseVkey,
  signNote,
  verifiedBy,
  vkeyOf,
} from "./signed-note";

// c2sp.org/signed-note, "Example".
const SPEC_VKEY = "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k";
const SPEC_NOTE =
  "This is an example message.\n\n\u2014 example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n";

describe("signed notes (c2sp.org/signed-note)", () => {
  it("verifies the specification's example note with its vkey, and recomputes the vkey's key id", () => {
    const key = parseVkey(SPEC_VKEY);
    expect(key.keyId.toString("hex")).toBe("530d903a");
    expect(vkeyOf(key.name, SIG_ED25519, key.publicKey)).toBe(SPEC_VKEY);
    expect(verifiedBy(SPEC_NOTE, key)).toHaveLength(1);
  });
  it("a changed byte of the text fails (throws: a known key whose signature fails makes the note malformed)", () => {
    expect(() => verifiedBy(SPEC_NOTE.replace("example message", "exbmple message"), parseVkey(SPEC_VKEY))).toThrow(
      /does not verify/,
    );
  });
  it("ignores a line of another key (other name, or same name and another id)", () => {
    const k = generateKeyPairSync("ed25519");
    const other = parseVkey(vkeyOf("example.com/foo", SIG_ED25519, k.publicKey));
    expect(verifiedBy(SPEC_NOTE, other)).toEqual([]);
  });
  it("refuses malformed vkeys and notes", () => {
    expect(() => parseVkey("example.com/foo+530d903b+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k")).toThrow(
      /key id does not match/,
    );
    expect(() => parseVkey("a b+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k")).toThrow();
    expect(() => parseNote("text\n\u2014 a AAAAAAAA\n")).toThrow(/blank line/);
    expect(() => parseNote("te\u0007xt\n\n\u2014 a AAAAAAAA\n")).toThrow(/control/);
    expect(() => parseNote("text\n\nnot a signature\n")).toThrow(/not a signature line/);
  });
});

describe("checkpoints and cosignatures", () => {
  const log = generateKeyPairSync("ed25519");
  const witness = generateKeyPairSync("ed25519");
  const cp = {
    origin: "example.com/audit/00000000-0000-4000-8000-000000000001",
    treeSize: 20852163,
    rootHash: "0a".repeat(32),
  };

  it("a checkpoint body is origin, decimal size and base64 root, and reads back", () => {
    const text = checkpointText(cp);
    expect(text).toBe(`${cp.origin}\n20852163\n${Buffer.alloc(32, 0x0a).toString("base64")}\n`);
    expect(parseCheckpointText(text)).toEqual(cp);
    expect(() => parseCheckpointText(text.replace("20852163", "020852163"))).toThrow(/leading zeros/);
    expect(() => parseCheckpointText(`${cp.origin}\n1\nAAAA\n`)).toThrow(/root/);
  });
  it("a cosignature/v1 line verifies with the witness's 0x04 vkey, states its time, and not with a 0x01 vkey of the key", () => {
    const body = checkpointText(cp);
    const note =
      body +
      "\n" +
      signNote(body, "example.com/audit", log.privateKey, log.publicKey) +
      cosign(body, "w1.example", witness.privateKey, witness.publicKey, 1679315147);
    const wv = parseVkey(vkeyOf("w1.example", SIG_COSIGNATURE_V1, witness.publicKey));
    const [sig] = verifiedBy(note, wv);
    expect(cosignatureTime(sig!)).toBe(1679315147);
    expect(verifiedBy(note, parseVkey(vkeyOf("w1.example", SIG_ED25519, witness.publicKey)))).toEqual([]);
    expect(verifiedBy(note, parseVkey(vkeyOf("example.com/audit", SIG_ED25519, log.publicKey)))).toHaveLength(1);
    const other = body.replace("20852163", "20852164");
    expect(() => verifiedBy(other + note.slice(body.length), wv)).toThrow(/does not verify/);
  });
});
