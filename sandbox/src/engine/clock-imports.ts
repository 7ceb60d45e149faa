/**
 * The guest's wall clock. QuickJS-ng reads the time through two Emscripten imports: one answers
 * C's `clock_gettime` (`Date.now()` for the real-time clock, `performance.now()` for the others),
 * the other `emscripten_date_now`. With a `SandboxClock` both read that clock instead, so the
 * guest's `Date`, `Date.now()` and `performance.now()` follow it (the test kit's manual clock).
 */
import type { SandboxClock } from "../types.js";

/** WASI's EINVAL, what the original answers for an unknown clock id. */
const EINVAL = 28;

/**
 * Replaces the time imports of an Emscripten import object. They are found by what they do (the
 * build minifies their names); a build whose glue changed shape fails loudly.
 *
 * @example clockImports(imports, memory, { now: () => manual.now(), … });
 */
export function clockImports(
  imports: WebAssembly.Imports,
  memory: WebAssembly.Memory,
  clock: Pick<SandboxClock, "now">,
): void {
  const env = Object.values(imports)[0] as Record<string, unknown>;
  const source = (key: string) => (typeof env[key] === "function" ? String(env[key]) : "");
  const keys = Object.keys(env);
  const clockGettime = keys.filter(
    (key) => source(key).includes("Date.now()") && source(key).includes("performance.now()"),
  );
  const dateNow = keys.filter((key) => /^\(\)\s*=>\s*Date\.now\(\)$/.test(source(key)));
  if (clockGettime.length !== 1 || dateNow.length !== 1) {
    throw new Error("this QuickJS build's clock functions were not recognised; the clock option cannot be applied");
  }
  env[clockGettime[0]] = function clockTimeGet(clockId: number, _precision: bigint, out: number): number {
    if (!(clockId >= 0 && clockId <= 3)) return EINVAL;
    new DataView(memory.buffer).setBigInt64(out, BigInt(Math.round(clock.now() * 1e6)), true);
    return 0;
  };
  env[dateNow[0]] = function dateNowFromClock(): number {
    return clock.now();
  };
}
