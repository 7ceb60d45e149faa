/**
 * Install review from the page: `review(path)` unpacks and checks a `.svc` with the host's one
 * installer (`installPackage`) and hands back its summary (what it is, what it can reach, risky
 * parts, and for an update what it gains) while the installer waits at its confirm step;
 * `decide(id, accept)` answers that step. So what gets installed is exactly what was reviewed,
 * and an update, wider or not, changes nothing until the person accepts: the installed version
 * keeps running meanwhile. A review nobody answers is declined after `REVIEW_TIMEOUT_MS`.
 * `reviewAddress` fetches an https address first, with the terminal's limits (fetch-package.ts),
 * and the install remembers the address for "check for updates".
 */
import type { Disposable } from "@svc/api";
import { randomBytes } from "node:crypto";
import { isAbsolute } from "node:path";
import { fetchPackage, installPackage, type InstallOptions, type InstallResult } from "../install/index.js";
import type { InstallSummary } from "../review/index.js";

export const REVIEW_TIMEOUT_MS = 10 * 60_000;
/** Reviews open at once; the oldest is declined past this. */
export const MAX_OPEN_REVIEWS = 4;

interface OpenReview {
  answer(accept: boolean): void;
  result: Promise<InstallResult>;
  timer: ReturnType<typeof setTimeout>;
}

export class InstallReviews implements Disposable {
  private readonly open = new Map<string, OpenReview>();

  constructor(
    private readonly supportDir: string,
    private readonly install: typeof installPackage = installPackage,
    /** Where the fetch's switches are read (the host's environment). */
    private readonly env: Readonly<Record<string, string | undefined>> = process.env,
  ) {}

  /** The summary of the package at `path`; rejects with the installer's message when it is not one. */
  review(path: string): Promise<{ reviewId: string; summary: InstallSummary }> {
    if (!isAbsolute(path))
      throw new Error(`give the full path of the .svc file, like /home/you/Downloads/deploys-1.2.0.svc`);
    if (!path.endsWith(".svc")) throw new Error("only .svc packages can be installed (svckit pack makes them)");
    return this.start(path, {});
  }

  /** The summary of the package at an https address, fetched first; installing it remembers the address. */
  async reviewAddress(address: string): Promise<{ reviewId: string; summary: InstallSummary & { address: string } }> {
    const got = await fetchPackage(address, this.env);
    // The fetched copy goes once the install is over (installed, declined or refused).
    const started = await this.start(got.file, { address }, () => got.done());
    // Where it came from is part of who is speaking: the review shows it.
    return { ...started, summary: { ...started.summary, address } };
  }

  /** Reviews the package at `path` (a staged update's, for one): the installer waits at its confirm step. */
  reviewFile(path: string): Promise<{ reviewId: string; summary: InstallSummary }> {
    return this.start(path, {});
  }

  private async start(
    path: string,
    extra: Pick<InstallOptions, "address">,
    after?: () => Promise<void>,
  ): Promise<{ reviewId: string; summary: InstallSummary }> {
    const reviewId = randomBytes(16).toString("base64url");
    let shown!: (summary: InstallSummary) => void;
    const summary = new Promise<InstallSummary>((resolve) => (shown = resolve));
    let answer!: (accept: boolean) => void;
    const decided = new Promise<boolean>((resolve) => (answer = resolve));
    const result = this.install(path, {
      supportDir: this.supportDir,
      ...extra,
      confirm: (s) => {
        shown(s);
        return decided;
      },
    });
    if (after) void result.then(after, after);
    const reviewed = await Promise.race([summary, result.then((r) => r.summary)]);
    const timer = setTimeout(() => this.settle(reviewId, false), REVIEW_TIMEOUT_MS);
    timer.unref();
    this.open.set(reviewId, { answer, result, timer });
    if (this.open.size > MAX_OPEN_REVIEWS) void this.settle(this.open.keys().next().value!, false);
    return { reviewId, summary: reviewed };
  }

  /** Installs (accept) or drops (decline) a reviewed package. */
  async decide(reviewId: string, accept: boolean): Promise<{ installed: boolean; id: string }> {
    if (!this.open.has(reviewId))
      throw new Error("this review is over (answered, replaced or timed out): open the .svc again");
    const result = await this.settle(reviewId, accept);
    return { installed: result.installed, id: result.id };
  }

  private settle(reviewId: string, accept: boolean): Promise<InstallResult> {
    const review = this.open.get(reviewId)!;
    this.open.delete(reviewId);
    clearTimeout(review.timer);
    review.answer(accept);
    return review.result;
  }

  /** Declines every open review (the host is stopping). */
  async dispose(): Promise<void> {
    await Promise.allSettled([...this.open.keys()].map((id) => this.settle(id, false)));
  }
}
