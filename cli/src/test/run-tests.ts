/**
 * `svckit test`: builds the extension, bundles its tests and runs them with Node's own test
 * runner (`node --test`), the kit wired in. Node's runner because it is already there wherever
 * svckit runs: an author who installs svckit from tarballs gets nothing else to install, no
 * binaries, no second copy of a test framework to keep in step with Node.
 */
import { spawn } from "node:child_process";
import { escapeForDisplay } from "@svc/api";
import type { Output } from "../command.js";
import { CliError } from "../errors.js";
import { buildExtension } from "../build/pipeline.js";
import { bundleTests, findTestFiles } from "./test-files.js";

export interface TestRunOptions {
  /** Record HTTP against the real APIs instead of replaying (`SVC_TEST_RECORD=1` in the tests). */
  record: boolean;
  /** Write snapshots anew (`SVC_TEST_UPDATE=1`). */
  update: boolean;
}

/**
 * @example
 * await runExtensionTests("/path/to/ext", { record: false, update: false }, ctx.out, ctx.env, ctx.signal);
 * @throws CliError when the build fails, a test does not compile, or a test fails.
 */
export async function runExtensionTests(
  dir: string,
  options: TestRunOptions,
  out: Output,
  env: Readonly<Record<string, string | undefined>>,
  signal: AbortSignal,
): Promise<void> {
  await buildExtension(dir, out);
  const files = await findTestFiles(dir);
  const bundles = await bundleTests(dir, files);
  out.info(
    `running ${files.length === 1 ? "1 test file" : `${files.length} test files`}${options.record ? ", recording HTTP" : ""}`,
  );
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, ["--enable-source-maps", "--test", "--test-reporter=spec", ...bundles], {
      cwd: dir,
      env: {
        ...env,
        SVC_TEST_RECORD: options.record ? "1" : "0",
        SVC_TEST_UPDATE: options.update ? "1" : "0",
        // The spec reporter colours only for a terminal; its lines come through svckit.
        FORCE_COLOR: "0",
      },
      stdio: ["ignore", "pipe", "pipe"],
      signal,
    });
    // Test output quotes the extension's strings (a blip title in a diff): shown inert.
    forwardLines(child.stdout, (line) => out.info(escapeForDisplay(line, { multiline: true })));
    forwardLines(child.stderr, (line) => out.warn(escapeForDisplay(line, { multiline: true })));
    child.on("error", (error) => (signal.aborted ? resolve(130) : reject(error)));
    child.on("close", (exitCode) => resolve(exitCode ?? 1));
  });
  if (code !== 0) throw new CliError("test failed: see the failing tests above");
}

function forwardLines(stream: NodeJS.ReadableStream, write: (line: string) => void): void {
  let pending = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    const lines = (pending + chunk).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) write(line);
  });
  stream.on("end", () => {
    if (pending) write(pending);
  });
}
