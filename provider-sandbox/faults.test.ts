import { describe, expect, it } from "vitest";
import { FaultBoard } from "./faults";

describe("FaultBoard", () => {
  it("one-shot faults are used up by the first matching request; sticky ones stay", () => {
    const board = new FaultBoard();
    board.add({ kind: "fail_5xx" });
    board.add({ kind: "latency", latencyMs: 50, once: false });
    expect(board.match({ endpoint: "create", paymentIntent: "pi_1" })).toMatchObject({
      action: "fail_5xx",
      latencyMs: 50,
    });
    expect(board.match({ endpoint: "create", paymentIntent: "pi_1" })).toMatchObject({ action: null, latencyMs: 50 });
    board.clear();
    expect(board.match({ endpoint: "create", paymentIntent: "pi_1" })).toMatchObject({ action: null, latencyMs: 0 });
  });

  it("scopes by payment intent and endpoint", () => {
    const board = new FaultBoard();
    board.add({ kind: "accept_then_hang", paymentIntent: "pi_2" });
    board.add({ kind: "drop_after_commit", on: "read" });
    expect(board.match({ endpoint: "create", paymentIntent: "pi_1" }).action).toBeNull();
    expect(board.match({ endpoint: "read", paymentIntent: null }).action).toBe("drop_after_commit");
    expect(board.match({ endpoint: "create", paymentIntent: "pi_2" }).action).toBe("accept_then_hang");
    expect(board.list()).toEqual([]);
  });

  it("applies the first action fault added and keeps later ones for later requests", () => {
    const board = new FaultBoard();
    board.add({ kind: "drop_after_commit" });
    board.add({ kind: "fail_5xx" });
    expect(board.match({ endpoint: "create", paymentIntent: null }).action).toBe("drop_after_commit");
    expect(board.match({ endpoint: "create", paymentIntent: null }).action).toBe("fail_5xx");
    expect(board.match({ endpoint: "create", paymentIntent: null }).action).toBeNull();
  });
});
