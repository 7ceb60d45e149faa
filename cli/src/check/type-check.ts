/**
 * `svckit check`: the TypeScript compiler over the extension's sources, with its own
 * tsconfig.json (the one `svckit new` writes), emitting nothing. esbuild, which `build` uses,
 * strips types without checking them; this is where a type error shows. `@svc/api` resolves
 * from the project, else from svckit's own copy (as the bundler does).
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { CliError } from "../errors.js";
import { SDK_PACKAGE, svckitSdkRoot } from "../bundle/api-resolution.js";

type TypeScript = typeof import("typescript");

/** The project's own TypeScript, else the one beside svckit; a clear error when there is none. */
function loadTypeScript(dir: string): TypeScript {
  for (const from of [join(dir, "package.json"), import.meta.url]) {
    try {
      return createRequire(from)("typescript") as TypeScript;
    } catch {
      // next place
    }
  }
  throw new CliError(`TypeScript is not installed for ${dir}: run npm install -D typescript there, then svckit check`);
}

/** Where svckit's own `@svc/api` types are, when the project has none. */
function sdkTypes(dir: string): string | undefined {
  if (existsSync(join(dir, "node_modules", SDK_PACKAGE, "package.json"))) return undefined;
  const root = svckitSdkRoot();
  const types = root && join(root, "node_modules", SDK_PACKAGE, "dist", "index.d.ts");
  return types && existsSync(types) ? types : undefined;
}

/**
 * Every type error, one line each: `src/index.ts:3:7: error TS2322: Type 'string' is not …`.
 *
 * @example
 * await typeCheck("/path/to/ext") // [] when the sources type-check
 */
export function typeCheck(dir: string): string[] {
  const ts = loadTypeScript(dir);
  const configPath = ts.findConfigFile(dir, ts.sys.fileExists, "tsconfig.json");
  let options: import("typescript").CompilerOptions;
  let files: string[];
  if (configPath && dirname(configPath) === dir) {
    const read = ts.readConfigFile(configPath, ts.sys.readFile);
    if (read.error) return [ts.flattenDiagnosticMessageText(read.error.messageText, "\n")];
    const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dir);
    options = parsed.options;
    files = parsed.fileNames;
  } else {
    options = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      strict: true,
      skipLibCheck: true,
      lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
    };
    files = [join(dir, "src", "index.ts")];
  }
  const types = sdkTypes(dir);
  options = { ...options, noEmit: true, ...(types ? { paths: { ...options.paths, [SDK_PACKAGE]: [types] } } : {}) };
  const program = ts.createProgram(files, options);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    if (!diagnostic.file || diagnostic.start === undefined) return `error TS${diagnostic.code}: ${text}`;
    const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return `${relative(dir, diagnostic.file.fileName)}:${line + 1}:${character + 1}: error TS${diagnostic.code}: ${text}`;
  });
}
