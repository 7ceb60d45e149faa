/**
 * `svckit test [dir]`: build, then run the extension's tests with the test kit.
 */
import { defineCommand } from "../command.js";
import { projectDir } from "../project.js";
import { runExtensionTests } from "../test/run-tests.js";

export const test = defineCommand({
  name: "test",
  summary: "build, then run test/**/*.test.ts with Node's test runner and @svc/testkit",
  details: [
    "Each test loads the extension with loadExtension() from @svc/testkit: the app's own sandbox",
    "and runtime processing, a fake app, a manual clock, and HTTP replayed from a recording, so",
    "tests run offline. --record sends requests to the real APIs and writes the recordings again;",
    "--update writes snapshots again.",
  ],
  positionals: [{ name: "dir", description: "the extension folder (default: the current folder)" }],
  options: {
    record: { type: "boolean", description: "record HTTP against the real APIs instead of replaying" },
    update: { type: "boolean", description: "write snapshots anew" },
  },
  examples: ["svckit test", "svckit test --record", "svckit test --update"],
  async run({ positionals, options }, ctx) {
    await runExtensionTests(
      projectDir(ctx.cwd, positionals[0]),
      { record: options.record, update: options.update },
      ctx.out,
      ctx.env,
      ctx.signal,
    );
  },
});
