/**
 * Programs that run other programs, and programs that write files anywhere. With one of these in
 * `permissions.exec`, `ctx.exec` can do anything the person can: run it (`env sh -c …`,
 * `find -exec`, `xargs`, `tar --to-command`, `sed 's/x/id/e'`, an interpreter's `-c`/`-e`), or
 * rewrite what runs (`cp` over an installed package's files, svc's own files or `~/.bashrc`). So
 * the runtime refuses them unless the manifest also says `"runAnyCommand": true`, and the install
 * summary says why. One list each, used by the sandbox's exec fence, the install summary and
 * `svckit build` (`needsRunAnyCommand`).
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

/**
 * Programs that write, move or remove files wherever they are told (an output file, a target
 * folder, an archive's contents). Not an exhaustive list of every program with an output option:
 * the common ones, so a person is never told that `cp` is harmless. Names in the list above
 * (`tar`, `rsync`, `zip`, `sed` …) are not repeated here.
 */
export const PROGRAMS_THAT_WRITE_FILES: ReadonlySet<string> = new Set([
  // copy, move, link, remove
  "cp",
  "mv",
  "rm",
  "ln",
  "link",
  "unlink",
  "install",
  "shred",
  "truncate",
  "touch",
  "mkdir",
  "mkfifo",
  "mknod",
  "chmod",
  "chown",
  "chgrp",
  "setfacl",
  "chattr",
  // write what they read (or are given) to a file they are told
  "tee",
  "dd",
  "sort",
  "uniq",
  "split",
  "csplit",
  "patch",
  "cpio",
  "sqlite3",
  "openssl",
  "gpg",
  "ssh-keygen",
  // unpack or compress in place
  "unzip",
  "gzip",
  "gunzip",
  "bzip2",
  "bunzip2",
  "xz",
  "unxz",
  "zstd",
  "unzstd",
  "7z",
  "7za",
  "unrar",
  "ar",
  // download to a file
  "curl",
  "wget",
  "scp",
  "sftp",
  "aria2c",
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

/**
 * Why the program named by `entry` needs `runAnyCommand`, or undefined when it does not.
 * @example
 * needsRunAnyCommand("/bin/sh") // "runs programs"
 * needsRunAnyCommand("cp")      // "writes files"
 * needsRunAnyCommand("df")      // undefined
 */
export function needsRunAnyCommand(entry: string): "runs programs" | "writes files" | undefined {
  const name = programName(entry);
  if (PROGRAMS_THAT_RUN_PROGRAMS.has(name)) return "runs programs";
  return PROGRAMS_THAT_WRITE_FILES.has(name) ? "writes files" : undefined;
}

/**
 * What `ctx.exec` rejects with when the program is listed but not installed: the exec fence
 * words it with this, and the kit's `runProgram` reads it back as "missing".
 * @example
 * programNotFound("playerctl") // 'exec: "playerctl" was not found on PATH'
 */
export function programNotFound(file: string): string {
  return `exec: "${file}" was not found${file.includes("/") ? "" : " on PATH"}`;
}
