import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  openSecret,
  parseSecretsKey,
  sealSecret,
  secretAad,
  secretHint,
  SecretBoxError,
  secretsKeyFormatProblem,
} from "./secret-box";

const key = () => parseSecretsKey(randomBytes(32).toString("base64"));

describe("secret box (AES-256-GCM)", () => {
  it("opens what it sealed, with a fresh IV each time", () => {
    const k = key();
    const a = sealSecret(k, "rk_test_abc123", secretAad("t1", "apiKey"));
    const b = sealSecret(k, "rk_test_abc123", secretAad("t1", "apiKey"));
    expect(a.sealed).not.toBe(b.sealed);
    expect(a.sealed).not.toContain("rk_test");
    expect(a.keyId).toBe(k.id);
    expect(openSecret([k], a, secretAad("t1", "apiKey"))).toBe("rk_test_abc123");
  });

  it("refuses another tenant's or another field's AAD, a changed ciphertext, a wrong key under the same id, an unknown key id", () => {
    const k = key();
    const s = sealSecret(k, "whsec_x", secretAad("t1", "webhookSecret"));
    const kind = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e instanceof SecretBoxError ? e.kind : "other";
      }
      return "opened";
    };
    expect(kind(() => openSecret([k], s, secretAad("t2", "webhookSecret")))).toBe("not_authentic");
    expect(kind(() => openSecret([k], s, secretAad("t1", "apiKey")))).toBe("not_authentic");
    const [v, iv, ct, tag] = s.sealed.split(".");
    const flipped = Buffer.from(ct!, "base64url");
    flipped[0] = flipped[0]! ^ 1;
    expect(
      kind(() =>
        openSecret(
          [k],
          { ...s, sealed: [v, iv, flipped.toString("base64url"), tag].join(".") },
          secretAad("t1", "webhookSecret"),
        ),
      ),
    ).toBe("not_authentic");
    expect(kind(() => openSecret([{ id: k.id, bytes: randomBytes(32) }], s, secretAad("t1", "webhookSecret")))).toBe(
      "not_authentic",
    );
    expect(kind(() => openSecret([key()], s, secretAad("t1", "webhookSecret")))).toBe("unknown_key");
    expect(kind(() => openSecret([k], { ...s, sealed: "v2.a.b.c" }, secretAad("t1", "webhookSecret")))).toBe(
      "malformed",
    );
  });

  it("opens with the previous key during a rotation", () => {
    const old = key();
    const s = sealSecret(old, "rk_live_1", "aad");
    expect(openSecret([key(), old], s, "aad")).toBe("rk_live_1");
  });

  it("takes 32 bytes as hex, base64 or base64url, nothing else", () => {
    const bytes = randomBytes(32);
    const ids = [bytes.toString("hex"), bytes.toString("base64"), bytes.toString("base64url")].map(
      (r) => parseSecretsKey(r).id,
    );
    expect(new Set(ids).size).toBe(1);
    expect(secretsKeyFormatProblem(randomBytes(31).toString("base64"))).toMatch(/32 random bytes/);
    expect(secretsKeyFormatProblem(randomBytes(33).toString("hex"))).toMatch(/32 random bytes/);
    expect(secretsKeyFormatProblem("correct horse battery staple, correct horse")).toMatch(/32 random bytes/);
    expect(() => parseSecretsKey("short")).toThrow(SecretBoxError);
    expect(ids[0]).toMatch(/^[0-9a-f]{16}$/);
    expect(ids[0]).not.toContain(bytes.toString("hex").slice(0, 16));
  });

  it("hints a credential by its prefix and last four characters only", () => {
    expect(secretHint("rk_test_51AbCdEfGhIjKlMnOp")).toBe("rk_test_…MnOp");
    expect(secretHint("sk_live_0123456789abcd")).toBe("sk_live_…abcd");
    expect(secretHint("short")).toBe("…");
  });
});
