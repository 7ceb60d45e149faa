/**
 * The async ops whose arguments are checked in full at the call, on the sandbox thread (their
 * fields in op-table.ts, their capability's `checks`): every refusal the caller can cause is
 * thrown there, with the caller's own stack. What they can still fail with later is the
 * machine's doing (the keychain locked, the storage file unreadable), so the guest keeps no stack
 * of the call for them (guest/bridge.ts). Keeping one costs QuickJS about a µs per frame on every
 * call, refused or not: ~10 % of a forwarded host call (bench/README.md, "Session 10").
 *
 * A pure module (no imports): the guest prelude bundles it.
 */
export const CHECKED_AT_CALL = ["storage.get", "storage.delete", "secrets.get", "secrets.delete"] as const;

export type CheckedAtCall = (typeof CHECKED_AT_CALL)[number];
