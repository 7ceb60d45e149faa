/**
 * Small hand-written extensions for the failure and tool tests, written into temp folders.
 * They import `@svc/api` like any extension; svckit resolves it from its own copy.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

export interface FixtureOptions {
  /** Replaces fields of the `svc` object. */
  svc?: Record<string, unknown>;
  /** Replaces top-level package.json fields. */
  pkg?: Record<string, unknown>;
  /** `src/index.ts`. */
  source?: string;
  /** Any other files, by relative path. */
  files?: Record<string, string>;
}

export const STAT_SOURCE = `import { defineExtension, number, stat } from "@svc/api";
export default defineExtension({
  async update(ctx) {
    await ctx.emit(stat("count", { title: "Count", value: number(3) }));
  },
});
`;

export async function writeFixture(dir: string, options: FixtureOptions = {}): Promise<string> {
  const packageJson = {
    name: "fixture",
    version: "1.2.3",
    main: "dist/index.js",
    ...options.pkg,
    svc: {
      id: "com.example.fixture",
      title: "Fixture",
      interval: "1m",
      permissions: { network: [], files: [], exec: [] },
      ...options.svc,
    },
  };
  const files: Record<string, string> = {
    "package.json": JSON.stringify(packageJson, null, 2),
    "src/index.ts": options.source ?? STAT_SOURCE,
    ...options.files,
  };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}
