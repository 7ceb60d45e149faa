import { describe, expect, it } from "vitest";
import { extensionRoots, settingsFromEnv } from "./options.js";

describe("settingsFromEnv", () => {
  it("has defaults that need no configuration", () => {
    const warnings: string[] = [];
    const settings = settingsFromEnv({}, "/repo/extensions", (m) => warnings.push(m));
    expect(settings).toEqual({
      bundled: ["/repo/extensions"],
      output: "auto",
      logLevel: "info",
      manualClock: false,
      controlOnStdin: false,
      backoff: { firstMs: 500, maxMs: 30_000, healthyAfterMs: 60_000 },
      runtimeMain: undefined,
      openURLs: false,
    });
    expect(warnings).toEqual([]);
  });

  it("reads every variable and warns about bad values", () => {
    const warnings: string[] = [];
    const settings = settingsFromEnv(
      {
        SVC_BUNDLED_EXTENSIONS: "/a:/b",
        SVC_HOST_OUTPUT: "json",
        SVC_LOG_LEVEL: "loud",
        SVC_HOST_CLOCK: "manual",
        SVC_HOST_CONTROL: "stdin",
        SVC_HOST_RESTART_DELAY_MS: "0",
      },
      "/repo/extensions",
      (m) => warnings.push(m),
    );
    expect(settings).toMatchObject({
      bundled: ["/a", "/b"],
      output: "json",
      logLevel: "info",
      manualClock: true,
      controlOnStdin: true,
      backoff: { firstMs: 500 },
    });
    expect(warnings).toEqual([
      "ignoring SVC_HOST_RESTART_DELAY_MS=0: it should be a positive integer",
      "ignoring SVC_LOG_LEVEL=loud: use one of debug, info, warn, error",
    ]);
  });

  it("opens pages in the browser only with SVC_OPEN_URLS=1", () => {
    const warnings: string[] = [];
    expect(settingsFromEnv({ SVC_OPEN_URLS: "1" }, "/x", (m) => warnings.push(m)).openURLs).toBe(true);
    expect(settingsFromEnv({ SVC_OPEN_URLS: "yes" }, "/x", (m) => warnings.push(m)).openURLs).toBe(false);
    expect(warnings).toEqual(["ignoring SVC_OPEN_URLS=yes: use one of 0, 1"]);
  });

  it("takes SVC_AGENT_FILES_TIMEOUT_MS as a positive number of milliseconds, else keeps the default", () => {
    const warnings: string[] = [];
    expect(
      settingsFromEnv({ SVC_AGENT_FILES_TIMEOUT_MS: "2000" }, "/x", (m) => warnings.push(m)).agentFilesTimeoutMs,
    ).toBe(2000);
    for (const bad of ["0", "-5", "2s", "99999999"])
      expect(
        settingsFromEnv({ SVC_AGENT_FILES_TIMEOUT_MS: bad }, "/x", (m) => warnings.push(m)).agentFilesTimeoutMs,
      ).toBeUndefined();
    expect(warnings).toEqual(
      ["0", "-5", "2s", "99999999"].map(
        (bad) => `ignoring SVC_AGENT_FILES_TIMEOUT_MS=${bad}: it should be a positive number of milliseconds`,
      ),
    );
  });

  it("takes the sign-in callback port from SVC_OAUTH_PORT: 1–65535, else SPEC.md's 47812 with a warning", () => {
    const warnings: string[] = [];
    const port = (value: string) => settingsFromEnv({ SVC_OAUTH_PORT: value }, "/x", (m) => warnings.push(m)).oauthPort;
    expect(port("")).toBeUndefined();
    expect(port("1")).toBe(1);
    expect(port("65535")).toBe(65_535);
    expect(port("65536")).toBeUndefined();
    expect(port("0")).toBeUndefined();
    expect(port("47812x")).toBeUndefined();
    expect(warnings).toEqual([
      "ignoring SVC_OAUTH_PORT=65536: it should be a port number 1–65535; using 47812",
      "ignoring SVC_OAUTH_PORT=0: it should be a port number 1–65535; using 47812",
      "ignoring SVC_OAUTH_PORT=47812x: it should be a port number 1–65535; using 47812",
    ]);
  });

  it("puts the user's folder after the bundled ones", () => {
    expect(extensionRoots(["/app"], "/home/Extensions")).toEqual([
      { path: "/app", source: "bundled" },
      { path: "/home/Extensions", source: "user" },
    ]);
  });
});
