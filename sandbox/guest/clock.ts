/**
 * The guest's `performance` clock starts when the sandbox is given to its extension (`init`),
 * not when its interpreter was made: a sandbox thread prepares instances ahead of time, and a
 * guest must not be able to tell (QuickJS-ng counts `performance.now()` from context creation).
 */
const g = globalThis as Record<string, unknown>;
const native = g.performance as { now(): number; timeOrigin: number };
const nativeNow = native.now;
const defineProperty = Object.defineProperty;

/**
 * Replaces `performance` with one counting from now; same shape as QuickJS-ng's own (`now` and
 * `timeOrigin`, enumerable, read-only).
 *
 * @example restartClock(); performance.now() // ≈ 0
 */
export function restartClock(): void {
  const base = nativeNow.call(native);
  const performance = {};
  defineProperty(performance, "now", {
    value: function now() {
      return nativeNow.call(native) - base;
    },
    enumerable: true,
  });
  defineProperty(performance, "timeOrigin", { value: native.timeOrigin + base, enumerable: true });
  defineProperty(g, "performance", { value: performance, writable: true, enumerable: true, configurable: true });
}
