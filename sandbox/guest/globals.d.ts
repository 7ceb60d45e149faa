// Globals the guest code relies on: QuickJS-ng's own (`performance`, `queueMicrotask`) and the
// ones this prelude installs before any extension code runs (`console`, `setTimeout`).
declare const performance: { now(): number; timeOrigin?: number };
declare function queueMicrotask(callback: () => void): void;
declare const console: {
  log(...args: unknown[]): void;
  error(...args: unknown[]): void;
  warn(...args: unknown[]): void;
};
declare function setTimeout(callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]): number;
