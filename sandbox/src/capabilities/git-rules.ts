/**
 * How `git` runs for an extension that did not ask for `runAnyCommand`. Git can run other
 * programs in many ways: aliases (`-c alias.x='!cmd' x`), transports (`ext::sh -c …`,
 * `--upload-pack=…`), hooks and templates, pagers, editors, fsmonitor, filter and diff drivers
 * from a repository's config. So:
 *
 * - **Environment**: no system or global config (`GIT_CONFIG_NOSYSTEM`, `GIT_CONFIG_GLOBAL=/dev/null`),
 *   only the `https` transport (`GIT_ALLOW_PROTOCOL`), no prompts, and command-line config that
 *   turns off hooks, fsmonitor, pagers and ssh (it outranks a repository's own config).
 * - **Arguments**: options before the subcommand only from a short safe list; the subcommand from
 *   a list of read-mostly ones (no `config`, `submodule`, `bisect`, `difftool`, `rebase` …); no
 *   option that names a program, a config value, a template or an output file anywhere.
 * - **Repositories**: never one inside the extension's own data folder, the one place it can
 *   write (it could plant a filter driver or fsmonitor in `.git/config`); see exec.ts.
 */

/** Options allowed before the subcommand. */
const GLOBAL_OPTIONS = new Set([
  "--no-pager",
  "--no-optional-locks",
  "--literal-pathspecs",
  "--no-replace-objects",
  "-P",
  "--version",
]);

/** Subcommands that read, or fetch over https, and take no program to run. */
const SUBCOMMANDS = new Set([
  "status",
  "log",
  "show",
  "diff",
  "rev-parse",
  "rev-list",
  "describe",
  "branch",
  "tag",
  "ls-files",
  "ls-tree",
  "ls-remote",
  "cat-file",
  "for-each-ref",
  "show-ref",
  "symbolic-ref",
  "merge-base",
  "name-rev",
  "shortlog",
  "blame",
  "count-objects",
  "fetch",
  "clone",
  "pull",
  "version",
  "reflog",
  "diff-tree",
  "diff-index",
  "diff-files",
  "grep",
  "show-branch",
  "cherry",
  "check-ignore",
  "check-attr",
]);

/**
 * Long options refused anywhere, and any abbreviation of them (git accepts unique prefixes):
 * they name a program (`--upload-pack`, `--receive-pack`, `--exec`, `--extcmd`,
 * `--open-files-in-pager`, `--help` runs man), set config (`--config`, `--config-env`), bring
 * hooks (`--template`), write a file outside the data folder (`--output`) or move the repository.
 */
const REFUSED_LONG = [
  "upload-pack",
  "receive-pack",
  "exec",
  "extcmd",
  "open-files-in-pager",
  "help",
  "config",
  "config-env",
  "template",
  "output",
  "separate-git-dir",
  "git-dir",
  "work-tree",
];

/** Short options refused per subcommand (also inside a cluster such as `-qu`). */
const REFUSED_SHORT: Record<string, string> = { clone: "cu", fetch: "u", "ls-remote": "u", pull: "u", grep: "O" };

/** Config given on git's command line (through the environment): it outranks a repository's. */
const FORCED_CONFIG: [string, string][] = [
  ["core.hooksPath", "/dev/null"],
  ["core.fsmonitor", "false"],
  ["core.pager", "cat"],
  ["core.editor", "false"],
  ["core.sshCommand", "false"],
  ["core.askPass", ""],
  ["credential.helper", ""],
  ["protocol.allow", "never"],
  ["protocol.https.allow", "always"],
  ["uploadpack.packObjectsHook", ""],
  ["diff.external", ""],
];

/** The extra environment git runs with (always, with or without `runAnyCommand`). */
export function gitEnvironment(): Record<string, string> {
  const env: Record<string, string> = {
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_ALLOW_PROTOCOL: "https",
    GIT_TERMINAL_PROMPT: "0",
    GIT_PAGER: "cat",
    GIT_CONFIG_COUNT: String(FORCED_CONFIG.length),
  };
  FORCED_CONFIG.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}

/**
 * Why `git` with these arguments is refused, or undefined when it may run.
 * @example
 * gitArgumentProblem(["-c", "alias.x=!id", "x"]) // 'the option "-c" is not allowed before the subcommand'
 * gitArgumentProblem(["log", "--oneline"])       // undefined
 */
export function gitArgumentProblem(argv: readonly string[]): string | undefined {
  let index = 0;
  while (index < argv.length && argv[index].startsWith("-")) {
    if (!GLOBAL_OPTIONS.has(argv[index])) return `the option "${argv[index]}" is not allowed before the subcommand`;
    index++;
  }
  const subcommand = argv[index];
  if (subcommand === undefined) return undefined; // `git --version`, or git's usage text
  if (!SUBCOMMANDS.has(subcommand)) return `the subcommand "${subcommand}" is not one git may run for an extension`;
  for (const arg of argv.slice(index + 1)) {
    if (arg === "--") break;
    if (arg.startsWith("--")) {
      const name = arg.slice(2).split("=")[0];
      const refused = REFUSED_LONG.find(
        (option) => name.length > 0 && (option.startsWith(name) || name.startsWith(option)),
      );
      if (refused) return `the option "--${refused}" is not allowed`;
    } else if (arg.startsWith("-")) {
      const letter = [...(REFUSED_SHORT[subcommand] ?? "")].find((l) => arg.slice(1).includes(l));
      if (letter) return `the option "-${letter}" is not allowed in git ${subcommand}`;
    }
    if (/^[a-z0-9+.-]*::/i.test(arg)) return `the address "${arg}" uses a transport other than https`;
  }
  return undefined;
}
