import { z } from "zod";
import { storedText } from "./stored";

// WebAuthn responses as @simplewebauthn/browser serialises them (base64url fields). Lengths are generous
// upper bounds so that nobody can post megabytes; the library verifies the content.

const b64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, "Expected base64url.");
const transports = z.array(z.enum(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"])).max(8);
const clientExtensionResults = z.record(z.string(), z.unknown());

/** `AuthenticationResponseJSON` (navigator.credentials.get), as sent with a passkey approval. */
export const authenticationResponseInput = z.object({
  id: b64url(1024),
  rawId: b64url(1024),
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: b64url(4096),
    authenticatorData: b64url(4096),
    // Room for post-quantum signatures too (ML-DSA-87: 4,627 bytes), which current browsers may produce.
    signature: b64url(8192),
    userHandle: b64url(512).optional(),
  }),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults,
});
export type AuthenticationResponseInput = z.infer<typeof authenticationResponseInput>;

/** `RegistrationResponseJSON` (navigator.credentials.create). */
export const registrationResponseInput = z.object({
  id: b64url(1024),
  rawId: b64url(1024),
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: b64url(4096),
    attestationObject: b64url(16_384),
    authenticatorData: b64url(4096).optional(),
    transports: transports.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64url(4096).optional(),
  }),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults,
});

export const verifyPasskeyRegistrationInput = z.strictObject({
  response: registrationResponseInput,
  name: storedText(60).optional(),
});
export type VerifyPasskeyRegistrationInput = z.infer<typeof verifyPasskeyRegistrationInput>;

export const passkeyApprovalOptionsInput = z.strictObject({
  proposalId: z.uuid({ message: "Not a proposal id." }),
  hash: z.string().regex(/^[0-9a-f]{64}$/, "Expected the 64-character lowercase hex hash shown to you."),
});
export type PasskeyApprovalOptionsInput = z.infer<typeof passkeyApprovalOptionsInput>;

// ---- responses (DTOs), validated by the client fetcher ----------------------------------------------

/** WebAuthn options as @simplewebauthn/server generates them; the browser library checks the rest. */
const webAuthnOptions = <T>() =>
  z.custom<T>(
    (v) => typeof v === "object" && v !== null && typeof (v as { challenge?: unknown }).challenge === "string",
    "Expected WebAuthn options with a challenge.",
  );
export const registrationOptionsDto =
  webAuthnOptions<import("@simplewebauthn/browser").PublicKeyCredentialCreationOptionsJSON>();
export const authenticationOptionsDto =
  webAuthnOptions<import("@simplewebauthn/browser").PublicKeyCredentialRequestOptionsJSON>();

export const registeredPasskeyDto = z.object({ id: z.string(), name: z.string(), createdAt: z.string() });
export type RegisteredPasskeyDto = z.infer<typeof registeredPasskeyDto>;
