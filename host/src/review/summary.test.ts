/** The words a person reads before installing, and which reach is marked risky. */
import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseManifest, type Manifest } from "@svc/api";
import { gainedReach, reachOf, summarize } from "./index.js";

// A home of its own holding svc's support folder where Linux keeps it, and a `~/.ssh`.
const root = realpathSync(mkdtempSync(join(tmpdir(), "svc-reach-")));
const home = join(root, "home", "ann");
const supportDir = join(home, ".local", "share", "Svc");
mkdirSync(join(supportDir, "Data"), { recursive: true });
mkdirSync(join(home, ".ssh"));
mkdirSync(join(home, "Documents"));
mkdirSync(join(home, "Projects"));
const where = { supportDir, home };
afterAll(() => rmSync(root, { recursive: true, force: true }));

const REFUSED = "it runs other programs, so svc refuses it (the package does not ask to run any command)";

function manifest(svc: Record<string, unknown>, top: Record<string, unknown> = {}): Manifest {
  const parsed = parseManifest({
    name: "deploys",
    version: "1.2.0",
    ...top,
    svc: { id: "com.example.deploys", title: "Deploys", ...svc },
  });
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.manifest;
}

describe("reach", () => {
  it("marks wildcard hosts, the disk, home and key folders, and programs that run anything", () => {
    const risks = Object.fromEntries(
      reachOf(
        manifest({
          permissions: {
            network: ["api.example.com", "*.example.com"],
            files: ["~/Projects/notes", "/", "~", "~/.ssh/config", "/etc/hosts", "/home/ann"],
            exec: ["git", "/bin/bash", "python3.12", "osascript", "node", "sh", "/usr/bin/env"],
          },
        }),
        where,
      ).map((item) => [item.key, item.risk ?? null]),
    );
    expect(risks).toEqual({
      "network:api.example.com": null,
      "network:*.example.com": "a wildcard covers every server under that name",
      "files:~/Projects/notes": null,
      "files:/": "the whole disk",
      "files:~": "your whole home folder",
      "files:~/.ssh/config": "a folder that holds keys, passwords or settings",
      "files:/etc/hosts": "system files",
      "files:/home/ann": "another person's home folder",
      "exec:git": "it can run other programs through its settings; svc lets it run only a few safe subcommands",
      "exec:/bin/bash": REFUSED,
      "exec:python3.12": REFUSED,
      "exec:osascript": REFUSED,
      "exec:node": REFUSED,
      "exec:sh": REFUSED,
      "exec:/usr/bin/env": REFUSED,
    });
  });

  it("marks loopback, private and metadata hosts, network programs, runAnyCommand, and watched key folders", () => {
    const risks = Object.fromEntries(
      reachOf(
        manifest({
          triggers: { watch: ["~/.ssh", "~/notes"] },
          permissions: {
            network: [
              "localhost",
              "127.0.0.1",
              "169.254.169.254",
              "10.0.0.2",
              "localhost:8080",
              "api.example.com:8443",
              "8.8.8.8",
            ],
            files: ["~/.ssh", "~/notes"],
            exec: ["curl", "find", "xargs", "df"],
            runAnyCommand: true,
          },
        }),
        where,
      ).map((item) => [item.key, item.risk ?? null]),
    );
    expect(risks).toEqual({
      "network:localhost": "programs on your own computer (loopback)",
      "network:127.0.0.1": "programs on your own computer (loopback)",
      "network:169.254.169.254": "the cloud metadata service, which hands out this machine's credentials",
      "network:10.0.0.2": "a private address on your local network",
      "network:localhost:8080": "programs on your own computer (loopback)",
      "network:api.example.com:8443": null,
      "network:8.8.8.8": null,
      "files:~/.ssh": "a folder that holds keys, passwords or settings",
      "files:~/notes": null,
      "exec:*": "it asks for programs that run other programs or write files anywhere (runAnyCommand)",
      "exec:curl":
        "it writes files anywhere (any package, svc's own files, ~/.bashrc): the extension can do whatever you can",
      "exec:find": "it runs other programs: the extension can run any command",
      "exec:xargs": "it runs other programs: the extension can run any command",
      "exec:df": null,
      "watch:~/.ssh": "a folder that holds keys, passwords or settings",
      "watch:~/notes": null,
    });
  });
});

describe("the summary", () => {
  it("says what the extension is and everything it can reach, in plain words", () => {
    const summary = summarize(
      manifest({
        description: "Shows your deploys.",
        author: "Example",
        interval: "5m",
        triggers: { webhook: true, watch: ["~/Projects"] },
        permissions: { network: ["api.github.com", "*.example.com"], files: ["~/Projects"], exec: ["bash"] },
        preferences: [{ name: "token", title: "API token", type: "password" }],
        oauth: {
          github: {
            title: "GitHub",
            authorizeUrl: "https://github.com/login/oauth/authorize",
            tokenUrl: "https://api.github.com/token",
            clientId: "x",
            scopes: ["repo"],
          },
        },
      }),
      where,
    );
    expect(summary.risky).toBe(true);
    expect(summary.text).toBe(
      [
        "Deploys 1.2.0 (com.example.deploys) by Example",
        "Shows your deploys.",
        "",
        "It can:",
        "  • connect to api.github.com",
        "  ! connect to any address ending in .example.com — a wildcard covers every server under that name",
        "  • read files in ~/Projects",
        "  ! run the program bash — it runs other programs, so svc refuses it (the package does not ask to run any command)",
        "  • ask you to sign in to GitHub at github.com (asking for: repo)",
        "  • receive what is sent to svc's local address POST /v1/hooks/com.example.deploys",
        "  • watch ~/Projects for changes",
        '  • keep a secret you enter ("API token") in your keychain',
        "It runs every 5m.",
        "Programs it runs can do anything your account can.",
        "",
      ].join("\n"),
    );
  });

  it("says so when it can reach nothing, and is not risky", () => {
    const summary = summarize(manifest({}), where);
    expect(summary.risky).toBe(false);
    expect(summary.text).toBe(
      "Deploys 1.2.0 (com.example.deploys)\n\nIt can reach nothing outside svc: no network, no files, no programs.\n",
    );
  });

  it("for an update, says when it gains nothing", () => {
    const old = manifest({ permissions: { network: ["api.example.com"] } }, { version: "1.1.0" });
    const next = manifest({ permissions: { network: ["api.example.com"] } });
    expect(summarize(next, where, { manifest: old, differentPackage: false }).text).toContain(
      "This updates the installed Deploys 1.1.0.\nIt can reach nothing that 1.1.0 could not.\n",
    );
  });

  it("lists the package's tools, and shows a stranger's escape sequences as plain text", () => {
    const m = manifest({ description: "Shows your deploys." });
    // A manifest that got past the schema some other way (an older svckit, a hand edit) is still inert.
    const hostile = {
      ...m,
      svc: { ...m.svc, title: "Deploys\u001b]0;pwned\u0007", description: "ok\u001b[8m" },
    } as Manifest;
    const summary = summarize(hostile, where, undefined, [{ title: "Format JSON" }, { title: "UUID\u202e" }]);
    expect(summary.tools).toEqual(["Format JSON", "UUID\u202e"]);
    expect(summary.text).toBe(
      [
        "Deploys\\u{1b}]0;pwned\\u{7} 1.2.0 (com.example.deploys)",
        "ok\\u{1b}[8m",
        "",
        "It can reach nothing outside svc: no network, no files, no programs.",
        "It adds 2 tools: Format JSON, UUID\\u{202e}.",
        "",
      ].join("\n"),
    );
  });
});

describe("the review is the fence: every entry shown and judged as the fence reads it", () => {
  const LOOPBACK = "programs on your own computer (loopback)";
  const METADATA = "the cloud metadata service, which hands out this machine's credentials";
  const KEYS = "a folder that holds keys, passwords or settings";
  const SVC =
    "refused: it is svc's own folder (its token, its settings, every extension's files), which no extension may read";
  const only = (svc: Record<string, unknown>) => reachOf(manifest(svc), where);

  it.each([
    ["2130706433:47811", 'connect to 127.0.0.1:47811 (written "2130706433:47811")', LOOPBACK],
    ["2852039166", 'connect to 169.254.169.254 (written "2852039166")', METADATA],
    ["0xa9fea9fe", 'connect to 169.254.169.254 (written "0xa9fea9fe")', METADATA],
    ["0x7f.1:8080", 'connect to 127.0.0.1:8080 (written "0x7f.1:8080")', LOOPBACK],
    ["127.1", 'connect to 127.0.0.1 (written "127.1")', LOOPBACK],
    ["0", 'connect to 0.0.0.0 (written "0")', "programs on your own computer (0.0.0.0 reaches them)"],
    ["LOCALHOST", "connect to localhost", LOOPBACK],
    ["10.1:8000", 'connect to 10.0.0.1:8000 (written "10.1:8000")', "a private address on your local network"],
    ["0xa9fe0101", 'connect to 169.254.1.1 (written "0xa9fe0101")', "a local or reserved address, not the internet"],
  ])("network %s", (entry, text, risk) => {
    expect(only({ permissions: { network: [entry] } })).toEqual([{ key: `network:${text.split(" ")[2]}`, text, risk }]);
  });

  it("a name is not marked for what its DNS could say: the fence connects it to public addresses only", () => {
    expect(only({ permissions: { network: ["app.localhost", "API.example.com"] } })).toEqual([
      { key: "network:app.localhost", text: "connect to app.localhost" },
      { key: "network:api.example.com", text: "connect to api.example.com" },
    ]);
  });

  it.each([
    ["~/Documents/../.ssh", 'read files in ~/.ssh (written "~/Documents/../.ssh")', KEYS],
    ["~//.aws", 'read files in ~/.aws (written "~//.aws")', KEYS],
    [
      "~/Projects/../",
      `read files in ~ (written "~/Projects/../") (but not svc's own folder in it)`,
      "your whole home folder",
    ],
    ["~/.local/share/Svc", "read files in ~/.local/share/Svc", SVC],
    ["~/.local/share/Svc/webhook.json", "read files in ~/.local/share/Svc/webhook.json", SVC],
    [
      "~/.local/share/Svc/Extensions/com.example.deploys",
      "read files in ~/.local/share/Svc/Extensions/com.example.deploys",
      SVC,
    ],
    [
      "~/.local",
      "read files in ~/.local (but not svc's own folder in it)",
      "it holds folders with keys, passwords or settings",
    ],
    ["/proc", "read files in /proc", "the running system's process, kernel and device files"],
    ["/sys", "read files in /sys", "the running system's process, kernel and device files"],
    ["/dev", "read files in /dev", "the running system's process, kernel and device files"],
    ["/home/bob/.ssh", "read files in /home/bob/.ssh", "another person's home folder"],
    [
      "~/.bash_history",
      "read files in ~/.bash_history",
      "your shell and program histories, which keep the passwords and tokens you typed",
    ],
    [
      "~/.local/share/fish/fish_history",
      "read files in ~/.local/share/fish/fish_history",
      "your shell and program histories, which keep the passwords and tokens you typed",
    ],
    [
      "~/.node_repl_history",
      "read files in ~/.node_repl_history",
      "your shell and program histories, which keep the passwords and tokens you typed",
    ],
  ])("files %s", (entry, text, risk) => {
    const [item] = only({ permissions: { files: [entry] } });
    expect(item).toEqual({ key: expect.stringMatching(/^files:/), text, risk });
  });

  it("the extension's own data folder is not marked; an entry that allows nothing says so", () => {
    expect(only({ permissions: { files: ["~/.local/share/Svc/Data/com.example.deploys", "notes", "$HOME"] } })).toEqual(
      [
        {
          key: "files:~/.local/share/Svc/Data/com.example.deploys",
          text: "read files in ~/.local/share/Svc/Data/com.example.deploys",
        },
        { key: "files:?notes", text: 'read nothing through "notes": only absolute paths and ~/… are read' },
        { key: "files:?$HOME", text: 'read nothing through "$HOME": only absolute paths and ~/… are read' },
      ],
    );
  });

  it("triggers.watch entries are resolved and marked the same way", () => {
    const items = only({
      triggers: { watch: ["~/Documents/../.ssh", "~/.local/share/Svc"] },
      permissions: { files: ["~"] },
    }).filter((item) => item.key.startsWith("watch:"));
    expect(items).toEqual([
      { key: "watch:~/.ssh", text: 'watch ~/.ssh (written "~/Documents/../.ssh") for changes', risk: KEYS },
      { key: "watch:~/.local/share/Svc", text: "watch ~/.local/share/Svc for changes", risk: SVC },
    ]);
  });

  it.each(["cp", "mv", "tee", "dd", "install", "ln", "rsync", "tar", "unzip", "truncate", "sed", "/bin/cp"])(
    "the program %s writes files anywhere or runs programs: refused without runAnyCommand, and the review says why",
    (program) => {
      const [item] = only({ permissions: { exec: [program] } });
      expect(item.risk).toMatch(
        /^it (writes files anywhere \(any package, svc's own files, ~\/\.bashrc\)|runs other programs), so svc refuses it \(the package does not ask to run any command\)$/,
      );
    },
  );

  it("cp is refused in words naming what it could rewrite", () => {
    expect(only({ permissions: { exec: ["cp"] } })).toEqual([
      {
        key: "exec:cp",
        text: "run the program cp",
        risk: "it writes files anywhere (any package, svc's own files, ~/.bashrc), so svc refuses it (the package does not ask to run any command)",
      },
    ]);
  });

  it("the same entry spelt another way is no gain in an update", () => {
    const old = manifest({ permissions: { network: ["127.0.0.1:47811"], files: ["~/.ssh"] } });
    const next = manifest({ permissions: { network: ["2130706433:47811"], files: ["~/Documents/../.ssh"] } });
    expect(gainedReach(old, next, where)).toEqual([]);
  });
});

describe("OAuth in the update diff", () => {
  const github = {
    title: "GitHub",
    authorizeUrl: "https://github.com/login/oauth/authorize",
    tokenUrl: "https://github.com/login/oauth/access_token",
    clientId: "Iv1.abc",
    scopes: ["read:user"],
  };
  const version = (v: string, provider: Record<string, unknown>) =>
    manifest(
      { permissions: { network: ["github.com", "uploads.example.com"] }, oauth: { github: provider } },
      { version: v },
    );

  it("new scopes and a token address moved to another listed host are gained, and marked", () => {
    const old = version("1.0.0", github);
    const next = version("1.1.0", {
      ...github,
      scopes: ["read:user", "repo", "delete_repo", "admin:org"],
      tokenUrl: "https://uploads.example.com/token",
    });
    const summary = summarize(next, where, { manifest: old, differentPackage: false });
    expect(summary.replaces?.gained).toEqual([
      {
        key: "oauth:github:scopes",
        text: "ask GitHub for more access: repo, delete_repo, admin:org",
        risk: "it asks your account for more than you approved",
      },
      {
        key: "oauth:github:tokenUrl",
        text: "send your GitHub sign-in and its tokens to another address: https://uploads.example.com/token (was https://github.com/login/oauth/access_token)",
        risk: "your sign-in would go somewhere you did not approve",
      },
    ]);
    expect(summary.text).not.toContain("It can reach nothing that 1.0.0 could not.");
    expect(summary.text).toContain(
      [
        "This updates the installed Deploys 1.0.0.",
        "Compared with 1.0.0, it can now also:",
        "  ! ask GitHub for more access: repo, delete_repo, admin:org — it asks your account for more than you approved",
        "  ! send your GitHub sign-in and its tokens to another address: https://uploads.example.com/token (was https://github.com/login/oauth/access_token) — your sign-in would go somewhere you did not approve",
        "",
      ].join("\n"),
    );
  });

  it("a changed authorize address, revoke address or client id is each shown", () => {
    const old = version("1.0.0", github);
    const next = version("1.1.0", {
      ...github,
      authorizeUrl: "https://uploads.example.com/authorize",
      revokeUrl: "https://uploads.example.com/revoke",
      clientId: "Iv1.other",
    });
    expect(gainedReach(old, next, where).map((item) => item.text)).toEqual([
      "ask you to sign in to GitHub at another address: https://uploads.example.com/authorize (was https://github.com/login/oauth/authorize)",
      "send the sign-out of GitHub to another address: https://uploads.example.com/revoke (was none)",
      "sign in to GitHub as another app (client id): Iv1.other (was Iv1.abc)",
    ]);
  });

  it("a device sign-in is shown at its code address's host; a moved code address is gained", () => {
    const { authorizeUrl: _browser, ...rest } = github;
    const device = {
      ...rest,
      flow: "device",
      deviceAuthorizationUrl: "https://github.com/login/device/code",
      scopes: ["repo"],
    };
    const old = version("1.0.0", device);
    expect(summarize(old, where).text).toContain("  • ask you to sign in to GitHub at github.com (asking for: repo)\n");
    const next = version("1.1.0", { ...device, deviceAuthorizationUrl: "https://uploads.example.com/device/code" });
    expect(gainedReach(old, next, where)).toEqual([
      {
        key: "oauth:github:deviceAuthorizationUrl",
        text: "ask for your GitHub sign-in code at another address: https://uploads.example.com/device/code (was https://github.com/login/device/code)",
        risk: "your sign-in would go somewhere you did not approve",
      },
    ]);
  });

  it("fewer scopes or the same provider gain nothing", () => {
    const old = version("1.0.0", { ...github, scopes: ["read:user", "repo"] });
    expect(gainedReach(old, version("1.1.0", { ...github, scopes: ["repo"] }), where)).toEqual([]);
    expect(gainedReach(old, version("1.1.0", { ...github, scopes: ["repo", "read:user"] }), where)).toEqual([]);
  });
});
