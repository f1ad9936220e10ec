import { describe, expect, it } from "vitest";
import { signInPausedError, signInProblem } from "./sign-in-error";

describe("sign-in error strings", () => {
  it("a pause carries its end through the string", () => {
    const until = new Date("2026-12-04T10:42:00.000Z");
    expect(signInProblem(signInPausedError(until), "failed")).toEqual({ kind: "paused", until });
    expect(signInProblem(signInPausedError(until), "ssoFailed")).toEqual({ kind: "paused", until });
  });
  it("the credentials failure, other errors and a malformed pause", () => {
    expect(signInProblem("CredentialsSignin", "ssoFailed")).toEqual({ kind: "failed" });
    expect(signInProblem("OAuthCallback", "ssoFailed")).toEqual({ kind: "ssoFailed" });
    expect(signInProblem("SignInPaused:not-a-date", "ssoFailed")).toEqual({ kind: "failed" });
    expect(signInProblem(undefined, "failed")).toEqual({ kind: "failed" });
  });
});
