/**
 * Programs that run other programs. With one of these in `permissions.exec`, `ctx.exec` can run
 * anything the person can (`env sh -c …`, `find -exec`, `xargs`, `tar --to-command`, `sed 's/x/id/e'`,
 * an interpreter's `-c`/`-e`), so the runtime refuses them unless the manifest also says
 * `"runAnyCommand": true`, and the install summary shows that as "can run any command".
 * One list, used by the sandbox's exec fence and by the install summary.
 *
 * `git` is the exception: it may run without `runAnyCommand` under argument rules of its own
 * (sandbox/src/capabilities/git-rules.ts), since it is the program extensions most often need.
 */

/** Lower-case program names (the last path part, `.exe` dropped, `python3.12` → `python3`). */
export const PROGRAMS_THAT_RUN_PROGRAMS: ReadonlySet<string> = new Set([
  // shells
  "sh",
  "bash",
  "zsh",
  "fish",
  "dash",
  "ksh",
  "mksh",
  "csh",
  "tcsh",
  "ash",
  "yash",
  "rbash",
  "busybox",
  "toybox",
  // interpreters and runtimes
  "python",
  "python2",
  "python3",
  "pypy",
  "pypy3",
  "node",
  "nodejs",
  "deno",
  "bun",
  "perl",
  "ruby",
  "irb",
  "php",
  "lua",
  "luajit",
  "tclsh",
  "wish",
  "expect",
  "awk",
  "gawk",
  "mawk",
  "nawk",
  "sed",
  "ed",
  "dc",
  "java",
  "jshell",
  "osascript",
  "powershell",
  "pwsh",
  "cmd",
  "cscript",
  "wscript",
  "r",
  "rscript",
  "julia",
  "guile",
  "racket",
  "sbcl",
  "emacs",
  "vi",
  "vim",
  "nvim",
  "gdb",
  "lldb",
  "make",
  "gmake",
  "cmake",
  // package runners and build tools
  "npx",
  "npm",
  "pnpm",
  "yarn",
  "pip",
  "pip3",
  "pipx",
  "uv",
  "uvx",
  "cargo",
  "go",
  "dotnet",
  "gradle",
  "mvn",
  // launchers: they run the program named in their arguments
  "env",
  "sudo",
  "su",
  "doas",
  "pkexec",
  "runuser",
  "xargs",
  "find",
  "parallel",
  "nice",
  "nohup",
  "timeout",
  "setsid",
  "stdbuf",
  "time",
  "watch",
  "strace",
  "ltrace",
  "chroot",
  "unshare",
  "nsenter",
  "flock",
  "script",
  "ionice",
  "chrt",
  "taskset",
  "systemd-run",
  "at",
  "batch",
  "crontab",
  "dbus-launch",
  "open",
  "xdg-open",
  "ssh",
  "tar",
  "zip",
  "rsync",
  "docker",
  "podman",
  "kubectl",
  "firejail",
  "bwrap",
  "tmux",
  "screen",
]);

/** The name a program entry is known by: `/usr/bin/python3.12` → `python3`, `NODE.EXE` → `node`. */
export function programName(entry: string): string {
  const base = entry.split(/[\\/]/).pop() ?? entry;
  return base
    .toLowerCase()
    .replace(/\.exe$/, "")
    .replace(/(\d)\.\d+$/, "$1");
}

/**
 * True when the program named by `entry` (a bare name or a path) runs other programs.
 * @example
 * runsOtherPrograms("/usr/bin/env") // true
 * runsOtherPrograms("df")           // false
 */
export function runsOtherPrograms(entry: string): boolean {
  return PROGRAMS_THAT_RUN_PROGRAMS.has(programName(entry));
}
