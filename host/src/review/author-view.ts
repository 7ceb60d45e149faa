/**
 * Who made a package, as the review shows it (install/author.ts decides it; the review and the
 * ledger show it).
 */

/** The author as the review shows it. */
export type AuthorView =
  | { signed: false }
  | {
      signed: true;
      fingerprint: string;
      words: string;
      /** True when no installed version was signed with this key. */
      newToYou: boolean;
      /** The installed version's key, when it handed the extension over to this one (a rotation statement). */
      rotatedFrom?: string;
      /** True when the handover was its author's statement that the installed key is lost. */
      lostKey?: boolean;
    };

/** The author line of the review's text. */
export function authorLine(author: AuthorView): string {
  if (!author.signed) return "! Unsigned: anyone could have made this.";
  if (author.rotatedFrom && author.lostKey)
    return `Signed by key ${author.fingerprint} (${author.words}): a new key, which its author named when the installed version's key ${author.rotatedFrom} was lost.`;
  if (author.rotatedFrom)
    return `Signed by key ${author.fingerprint} (${author.words}): a new key, which the installed version's key ${author.rotatedFrom} handed this extension over to.`;
  return `Signed by key ${author.fingerprint} (${author.words})${author.newToYou ? ": new to you." : ": the same author as the installed version."}`;
}
