import { describe, expect, it } from "vitest";
import { Scope, disposable } from "./lifetime.js";

describe("Scope", () => {
  it("disposes newest first, one after the other, each once", async () => {
    const order: string[] = [];
    const scope = new Scope();
    scope.use(disposable(() => void order.push("store")));
    scope.defer(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      order.push("server");
    });
    scope.defer(() => void order.push("display"));
    await Promise.all([scope.dispose(), scope.dispose()]);
    await scope.dispose();
    expect(order).toEqual(["display", "server", "store"]);
    expect(scope.disposed).toBe(true);
  });

  it("disposes the rest when one throws, then rethrows it", async () => {
    const order: string[] = [];
    const scope = new Scope();
    scope.defer(() => void order.push("first"));
    scope.defer(() => {
      throw new Error("port stuck");
    });
    scope.defer(() => void order.push("last"));
    await expect(scope.dispose()).rejects.toThrow("port stuck");
    expect(order).toEqual(["last", "first"]);
  });

  it("gathers several failures in one AggregateError", async () => {
    const scope = new Scope();
    scope.defer(() => {
      throw new Error("a");
    });
    scope.defer(() => {
      throw new Error("b");
    });
    const error = await scope.dispose().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AggregateError);
    expect((error as AggregateError).message).toBe("2 pieces failed to stop");
    expect((error as AggregateError).errors.map((e: Error) => e.message)).toEqual(["b", "a"]);
  });

  it("disposes at once what is added after it was disposed", async () => {
    const scope = new Scope();
    await scope.dispose();
    let closed = false;
    const resource = scope.use(disposable(() => void (closed = true)));
    expect(resource).toBeDefined();
    expect(closed).toBe(true);
  });
});
