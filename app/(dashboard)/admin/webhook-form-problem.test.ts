// What a webhook form shows after a failed save: refusals it has words for, as they are; everything else as
// internal_error, whose text never reaches the browser.
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/domain/outcome";
import { webhookFormProblem } from "./webhook-form-problem";

const known = ["invalid", "private_address"] as const;

describe("webhookFormProblem", () => {
  it("passes sign-in and permission refusals through as they are", () => {
    expect(webhookFormProblem(new AppError("unauthenticated", "Sign in."), known, "x")).toBe("unauthenticated");
    expect(webhookFormProblem(new AppError("permission_denied", "No."), known, "x")).toBe("permission_denied");
  });

  it("names an input refusal by its details.problem when the form knows it", () => {
    const refusal = new AppError("invalid_arguments", "Private address.", { problem: "private_address" });
    expect(webhookFormProblem(refusal, known, "x")).toBe("private_address");
  });

  it("reads an input refusal that names no problem as plain invalid", () => {
    expect(webhookFormProblem(new AppError("invalid_arguments", "Bad URL."), known, "x")).toBe("invalid");
    expect(webhookFormProblem(new AppError("invalid_arguments", "Bad URL.", { problem: 7 }), known, "x")).toBe(
      "invalid",
    );
  });

  it("shows a problem the form has no words for, another code, or a non-AppError as internal_error", () => {
    const unknownProblem = new AppError("invalid_arguments", "Too long.", { problem: "too_long" });
    expect(webhookFormProblem(unknownProblem, known, "x")).toBe("internal_error");
    // The same problem under another code is not an input refusal.
    const notInput = new AppError("not_found", "Gone.", { problem: "private_address" });
    expect(webhookFormProblem(notInput, known, "x")).toBe("internal_error");
    expect(webhookFormProblem(new Error("connect ECONNREFUSED 10.0.0.5:5432"), known, "x")).toBe("internal_error");
    expect(webhookFormProblem("a thrown string", known, "x")).toBe("internal_error");
  });

  it("with no words for plain invalid, an unnamed refusal is internal_error too", () => {
    expect(webhookFormProblem(new AppError("invalid_arguments", "Bad."), ["private_address"] as const, "x")).toBe(
      "internal_error",
    );
  });
});
