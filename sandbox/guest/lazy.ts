/**
 * Lazy parts of the prelude. Each part's code is kept as text (scripts/build-prelude.mjs puts it
 * there) and compiled only when one of its globals is first touched, so a sandbox that never
 * uses URL or fetch never pays for compiling them. A part gets the core's shared modules
 * (events, encoding, errors) as `__svc_shared`, so its classes are the core's own.
 */
import type { Bridge } from "./bridge.ts";

export interface LazyPart {
  globals: string[];
  /** An esbuild IIFE assigning `__svc_part = { default: install }`. */
  source: string;
}

const FunctionConstructor = Function;
const defineProperty = Object.defineProperty;

/**
 * Defines each part's globals as accessors that install the part on first use. Returns each
 * part's loader, by part name: it installs the part if not yet done and gives what its
 * `install` returned (so the core reaches a part's own objects even after a guest replaced
 * its globals).
 */
export function installLazyParts(
  parts: Record<string, LazyPart>,
  bridge: Bridge,
  shared: Record<string, unknown>,
): Record<string, () => unknown> {
  const g = globalThis as Record<string, unknown>;
  const loaders: Record<string, () => unknown> = {};
  for (const [partName, part] of Object.entries(parts)) {
    let installed = false;
    let installedValue: unknown;
    const load = () => {
      if (installed) return installedValue;
      installed = true;
      for (const name of part.globals) delete g[name];
      const factory = FunctionConstructor("__svc_shared", `${part.source}\nreturn __svc_part.default;`)(shared) as (
        b: Bridge,
      ) => unknown;
      installedValue = factory(bridge);
      return installedValue;
    };
    loaders[partName] = load;
    for (const name of part.globals) {
      defineProperty(g, name, {
        configurable: true,
        enumerable: false,
        get() {
          load();
          return g[name];
        },
        set(value: unknown) {
          load();
          defineProperty(g, name, { value, writable: true, configurable: true, enumerable: false });
        },
      });
    }
  }
  return loaders;
}
