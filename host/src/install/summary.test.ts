/** The words a person reads before installing, and which reach is marked risky. */
import { describe, expect, it } from "vitest";
import { parseManifest, type Manifest } from "@svc/api";
import { reachOf, summarize } from "./index.js";

function manifest(svc: Record<string, unknown>, top: Record<string, unknown> = {}): Manifest {
  const parsed = parseManifest({ name: "deploys", version: "1.2.0", ...top, svc: { id: "com.example.deploys", title: "Deploys", ...svc } });
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
      "exec:git": null,
      "exec:/bin/bash": "it runs any command it is given",
      "exec:python3.12": "it runs any command it is given",
      "exec:osascript": "it runs any command it is given",
      "exec:node": "it runs any command it is given",
      "exec:sh": "it runs any command it is given",
      "exec:/usr/bin/env": "it runs any command it is given",
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
        oauth: { github: { title: "GitHub", authorizeUrl: "https://github.com/login/oauth/authorize", tokenUrl: "https://api.github.com/token", clientId: "x", scopes: ["repo"] } },
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
        "  ! run the program bash — it runs any command it is given",
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
    expect(summary.text).toBe("Deploys 1.2.0 (com.example.deploys)\n\nIt can reach nothing outside svc: no network, no files, no programs.\n");
  });

  it("for an update, says when it gains nothing", () => {
    const old = manifest({ permissions: { network: ["api.example.com"] } }, { version: "1.1.0" });
    const next = manifest({ permissions: { network: ["api.example.com"] } });
    expect(summarize(next, { manifest: old, differentPackage: false }).text).toContain("This updates the installed Deploys 1.1.0.\nIt can reach nothing that 1.1.0 could not.\n");
  });
});
