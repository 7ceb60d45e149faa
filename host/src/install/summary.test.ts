/** The words a person reads before installing, and which reach is marked risky. */
import { describe, expect, it } from "vitest";
import { parseManifest, type Manifest } from "@svc/api";
import { reachOf, summarize } from "./index.js";

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
      "files:/home/ann": "a whole home folder",
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
      "exec:*": "it asks for programs that run other programs (runAnyCommand)",
      "exec:curl": "it connects anywhere on its own, outside the network list",
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
    const summary = summarize(manifest({}));
    expect(summary.risky).toBe(false);
    expect(summary.text).toBe(
      "Deploys 1.2.0 (com.example.deploys)\n\nIt can reach nothing outside svc: no network, no files, no programs.\n",
    );
  });

  it("for an update, says when it gains nothing", () => {
    const old = manifest({ permissions: { network: ["api.example.com"] } }, { version: "1.1.0" });
    const next = manifest({ permissions: { network: ["api.example.com"] } });
    expect(summarize(next, { manifest: old, differentPackage: false }).text).toContain(
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
    const summary = summarize(hostile, undefined, [{ title: "Format JSON" }, { title: "UUID\u202e" }]);
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
