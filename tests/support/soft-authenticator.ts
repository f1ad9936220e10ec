// A software WebAuthn authenticator for tests, built on node:crypto P-256 keys: it answers registration
// ("none" attestation) and authentication the way a real authenticator would, so the server's verification
// runs end to end without a browser. User presence and user verification are always asserted.
import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";

const b64url = (b: Uint8Array | Buffer) => Buffer.from(b).toString("base64url");
const sha256 = (b: Uint8Array | string) => createHash("sha256").update(b).digest();
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

export type SoftAuthenticator = {
  credentialId: string;
  /** COSE public key (EC2, ES256), base64url: what the server should store. */
  cosePublicKey: string;
  counter: number;
  register(challenge: string, opts?: { origin?: string; rpID?: string }): RegistrationResponseJSON;
  authenticate(
    challenge: string,
    opts?: { origin?: string; rpID?: string; userVerified?: boolean },
  ): AuthenticationResponseJSON;
};

export function createSoftAuthenticator(relyingParty: { rpID: string; origin: string }): SoftAuthenticator {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" }) as { x: string; y: string };
  const id = randomBytes(16);
  const cose = isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, new Uint8Array(Buffer.from(jwk.x, "base64url"))],
      [-3, new Uint8Array(Buffer.from(jwk.y, "base64url"))],
    ]),
  );

  const self: SoftAuthenticator = {
    credentialId: b64url(id),
    cosePublicKey: b64url(cose),
    counter: 0,
    register(challenge, opts = {}) {
      const clientDataJSON = Buffer.from(
        JSON.stringify({
          type: "webauthn.create",
          challenge,
          origin: opts.origin ?? relyingParty.origin,
          crossOrigin: false,
        }),
      );
      const idLen = Buffer.alloc(2);
      idLen.writeUInt16BE(id.length);
      // rpIdHash ‖ flags (UP | UV | AT) ‖ signCount ‖ AAGUID ‖ credential id length ‖ credential id ‖ COSE key
      const authData = Buffer.concat([
        sha256(opts.rpID ?? relyingParty.rpID),
        Buffer.from([0x45]),
        u32(self.counter),
        Buffer.alloc(16),
        idLen,
        id,
        Buffer.from(cose),
      ]);
      const attestationObject = isoCBOR.encode(
        new Map<string, unknown>([
          ["fmt", "none"],
          ["attStmt", new Map()],
          ["authData", new Uint8Array(authData)],
        ]) as never,
      );
      return {
        id: self.credentialId,
        rawId: self.credentialId,
        type: "public-key",
        response: {
          clientDataJSON: b64url(clientDataJSON),
          attestationObject: b64url(attestationObject),
          transports: ["internal"],
        },
        clientExtensionResults: {},
      };
    },
    authenticate(challenge, opts = {}) {
      self.counter += 1;
      const clientDataJSON = Buffer.from(
        JSON.stringify({
          type: "webauthn.get",
          challenge,
          origin: opts.origin ?? relyingParty.origin,
          crossOrigin: false,
        }),
      );
      const flags = opts.userVerified === false ? 0x01 : 0x05; // UP, plus UV unless told otherwise
      const authData = Buffer.concat([sha256(opts.rpID ?? relyingParty.rpID), Buffer.from([flags]), u32(self.counter)]);
      const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), privateKey); // DER, as WebAuthn ES256
      return {
        id: self.credentialId,
        rawId: self.credentialId,
        type: "public-key",
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
        },
        clientExtensionResults: {},
      };
    },
  };
  return self;
}
