// Globals the guest code relies on: QuickJS-ng's own (`performance`, `queueMicrotask`) and the
// ones this prelude installs before any extension code runs (`console`, `setTimeout`).
declare const performance: { now(): number; timeOrigin?: number };
declare function queueMicrotask(callback: () => void): void;
/** QuickJS-ng's own, as WebIDL has it (a subclass of Error with a `code`). */
declare class DOMException extends Error {
  constructor(message?: string, name?: string);
  readonly code: number;
}
declare const console: {
  log(...args: unknown[]): void;
  error(...args: unknown[]): void;
  warn(...args: unknown[]): void;
};
declare function setTimeout(callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]): number;
