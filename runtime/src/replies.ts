/**
 * The webhook replies an extension may give: the `replyId`s of the events it received. Another
 * extension's replyId, or one already answered, is refused, so no extension can complete a
 * request meant for someone else.
 */
const MAX_OPEN_REPLIES = 256;

/**
 * @example
 * const replies = new ReplyBook();
 * replies.expect("r-1");
 * replies.take("r-1"); // true, once
 */
export class ReplyBook {
  private readonly open = new Set<string>();

  expect(replyId: string): void {
    this.open.add(replyId);
    // Held requests end on their own after at most 600 s; forget the oldest rather than grow.
    if (this.open.size > MAX_OPEN_REPLIES) this.open.delete(this.open.values().next().value as string);
  }

  /** True (and forgotten) when this replyId was given to the extension and not yet answered. */
  take(replyId: string): boolean {
    return this.open.delete(replyId);
  }
}
