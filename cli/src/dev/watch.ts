/**
 * The watch half of `svckit dev`: an esbuild context that rebuilds on every change to the
 * sources or package.json, and after each rebuild checks and writes `dist/` like `svckit
 * build` does. A failed rebuild prints its problems and keeps watching.
 */
import { context, type Plugin } from "esbuild";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { Output } from "../command.js";
import { bundleOptions, bundleOutcome, ENTRY } from "../bundle/bundle.js";
import { checkBuild, failureText, writeBuild } from "../build/pipeline.js";

export interface Watcher {
  /** Resolves after the first build, good or bad. */
  ready: Promise<void>;
  /** Stops watching; resolves when esbuild has let go. */
  stop(): Promise<void>;
}

/**
 * Starts watching `dir`, reporting each build to `out`.
 *
 * @example
 * const watcher = await watchExtension(dir, ctx.out);
 * await watcher.ready;
 * // … later
 * await watcher.stop();
 */
export async function watchExtension(dir: string, out: Output): Promise<Watcher> {
  /** The bundle last written: an identical rebuild writes nothing, so the app reloads once per change. */
  let written: string | undefined;
  let firstBuild: () => void = () => {};
  const ready = new Promise<void>((resolve) => (firstBuild = resolve));
  const afterEachBuild: Plugin = {
    name: "svc-dev-rebuild",
    setup(build) {
      // package.json holds the manifest: an edit to it is a reason to rebuild too.
      build.onResolve({ filter: /^src\/index\.ts$/ }, (args) =>
        args.kind === "entry-point" ? { path: join(dir, ENTRY), watchFiles: [join(dir, "package.json")] } : undefined,
      );
      build.onEnd(async (result) => {
        try {
          // An editor that saves in place truncates the file first: an empty entry is a save
          // under way, never a bundle to hand the app (its next write brings the rebuild).
          if ((await stat(join(dir, ENTRY)).catch(() => undefined))?.size === 0) {
            out.warn(`${timestamp()} ${ENTRY} is empty: not built (waiting for the save to finish)`);
            return;
          }
          const report = await checkBuild(dir, bundleOutcome(result));
          for (const warning of report.warnings) out.warn(`warning: ${warning}`);
          if (report.problems.length > 0) {
            for (const line of failureText(report.problems).split("\n")) out.warn(line);
            out.warn("(still watching: fix and save to rebuild)");
          } else if (report.code !== written) {
            out.info(`${timestamp()} ${await writeBuild(dir, report)}`);
            written = report.code;
          }
        } catch (error) {
          // A build step failed outright (unreadable package.json …): say so, keep watching.
          out.warn(`${timestamp()} build failed: ${(error as Error).message}`);
        } finally {
          firstBuild();
        }
      });
    },
  };
  const ctx = await context(bundleOptions(dir, [afterEachBuild]));
  await ctx.watch();
  return {
    ready,
    stop: async () => {
      await ctx.dispose();
    },
  };
}

function timestamp(): string {
  return new Date().toTimeString().slice(0, 8);
}
