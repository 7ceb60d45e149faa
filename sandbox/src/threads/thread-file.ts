/**
 * Where a sandbox thread's code lives: the built `dist/threads/sandbox-thread.js`, found from
 * here whether this module runs from `src/` (the tests) or from `dist/`. svc-runtime's bundle
 * (`runtime/scripts/bundle.mjs`) puts its own module in this one's place, naming the thread
 * bundled beside it; that is why this is a module of its own.
 */
export const SANDBOX_THREAD_FILE = new URL("../../dist/threads/sandbox-thread.js", import.meta.url);
