/**
 * Stacks an author can read: a guest error's frames point into the bundle (`dist/index.js:1:5321`);
 * with the source map svckit writes beside it (`dist/index.js.map`, never packed) each frame is
 * turned into the line of the author's source (`src/index.ts:12:7`). One definition, used by the
 * runtime (log lines, so the host's log stream and `svckit dev` see them) and `svckit validate`.
 */
import { readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { join, posix } from "node:path";
import { BUNDLE_PREFIX, PRELUDE_FILENAME } from "@svc/sandbox";
import { BUNDLE_FILE } from "./support-folder.js";

/** The source map's file beside the bundle. */
export const SOURCE_MAP_FILE = `${BUNDLE_FILE}.map`;

/** The longest stack passed on (frames past it are dropped). */
export const MAX_STACK_CHARS = 4_000;

const FRAME = new RegExp(`${BUNDLE_FILE.replace(/[.]/g, "\\.")}:(\\d+):(\\d+)`, "g");

/** A parsed source map, or undefined when the text is not one. */
export function parseSourceMap(json: string): SourceMap | undefined {
  try {
    return new SourceMap(JSON.parse(json));
  } catch {
    return undefined;
  }
}

/** The source map of an extension folder's bundle, when svckit wrote one. */
export function readSourceMap(folder: string): SourceMap | undefined {
  try {
    return parseSourceMap(readFileSync(join(folder, SOURCE_MAP_FILE), "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * `stack` with every `dist/index.js:<line>:<column>` (1-based) that the map knows replaced by
 * its source position, relative to the extension folder; other frames stay as they are.
 *
 * @example
 * mapStack("at update (dist/index.js:1:5321)", map) // "at update (src/index.ts:12:7)"
 */
export function mapStack(stack: string, map: SourceMap | undefined): string {
  const text = stack.length > MAX_STACK_CHARS ? `${stack.slice(0, MAX_STACK_CHARS)}…` : stack;
  if (!map) return text;
  return text.replace(FRAME, (frame, line: string, column: string) => {
    // The sandbox runs the bundle inside a function whose opening shares the bundle's first line.
    const shift = line === "1" ? BUNDLE_PREFIX.length : 0;
    const entry = map.findEntry(Number(line) - 1, Math.max(0, Number(column) - 1 - shift)) as {
      originalSource?: string;
      originalLine?: number;
      originalColumn?: number;
    };
    if (!entry?.originalSource || entry.originalLine === undefined || entry.originalColumn === undefined) return frame;
    // Sources are named relative to the map, which sits in dist/.
    const source = posix.normalize(
      posix.join(posix.dirname(BUNDLE_FILE), entry.originalSource.replace(/^file:\/\//, "")),
    );
    return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}

/**
 * A frame in svc's own guest code: the prelude, or one of its lazily compiled parts (fetch, URL …,
 * compiled with `Function`, which QuickJS names `<input>`).
 */
function isSvcFrame(line: string): boolean {
  return line.includes(`(${PRELUDE_FILENAME}:`) || line.includes("(<input>:");
}

/**
 * Whether stacks keep svc's own frames (the guest prelude's, `svc:prelude.js`): only with
 * `SVC_DEBUG=1`, for whoever debugs svc itself. An author's stack is their own code's lines.
 */
export function keepsSvcFrames(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  return env.SVC_DEBUG === "1";
}

/**
 * The lines that tell an author what was thrown where: `<what> threw: <message>` and the
 * mapped stack's frames, without svc's own unless `svcFrames` (see {@link keepsSvcFrames}).
 *
 * @example
 * describeGuestError("update()", "x is not defined", "    at update (dist/index.js:1:99)", map)
 * // "update() threw: x is not defined\n    at update (src/index.ts:4:5)"
 */
export function describeGuestError(
  what: string,
  message: string,
  stack: string | undefined,
  map: SourceMap | undefined,
  svcFrames = keepsSvcFrames(),
): string {
  const frames = stack
    ? mapStack(stack, map)
        .split("\n")
        .filter((line) => /^\s*at /.test(line) && (svcFrames || !isSvcFrame(line)))
    : [];
  return [`${what} threw: ${message}`, ...frames].join("\n");
}
