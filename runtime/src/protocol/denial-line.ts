/**
 * How a sandbox denial reads as one line: the runtime's `warn` log line and the host's "Recently
 * refused" entry are the same words, made here from the same record.
 */

/** A denial's target is cut to this many characters (a URL can be 8 KB), then `…`. */
export const DENIAL_TARGET_CHARS = 200;
/** A denial's reason and fix are cut to this many characters. */
export const DENIAL_TEXT_CHARS = 1000;

interface DenialText {
  kind: string;
  target: string;
  reason: string;
  fix?: string;
}

/** `text` cut to `max` characters, with `…` when it was longer. */
function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * The record as it travels: target, reason and fix cut to their limits, nothing else kept.
 *
 * @example
 * denialRecord({ kind: "fetch", target: "x.example.com", reason: "…", at: 1 }) // same fields, cut
 */
export function denialRecord<Kind extends string>(
  denial: DenialText & { kind: Kind; at: number },
): DenialText & { kind: Kind; at: number } {
  return {
    kind: denial.kind,
    target: cut(denial.target, DENIAL_TARGET_CHARS),
    reason: cut(denial.reason, DENIAL_TEXT_CHARS - 1),
    ...(denial.fix === undefined ? {} : { fix: cut(denial.fix, DENIAL_TEXT_CHARS - 1) }),
    at: denial.at,
  };
}

/**
 * What was refused comes first (a reason alone rarely says whether it was a fetch, an exec or a file).
 *
 * @example
 * denialLine({ kind: "fetch", target: "x.example.com", reason: '"x.example.com" is not in permissions.network',
 *   fix: 'add "x.example.com" to svc.permissions.network in package.json' })
 * // 'denied: fetch x.example.com: "x.example.com" is not in permissions.network; to allow it, add "x.example.com" to …'
 */
export function denialLine(denial: DenialText): string {
  const what = `${denial.kind} ${cut(denial.target, DENIAL_TARGET_CHARS)}`;
  return denial.fix
    ? `denied: ${what}: ${denial.reason}; to allow it, ${denial.fix}`
    : `denied: ${what}: ${denial.reason}`;
}
