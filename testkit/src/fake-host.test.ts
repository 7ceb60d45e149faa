/**
 * The fake app's answers: a fresh install by default, the state a test sets, and refusals worded
 * as svc-host words them.
 */
import { describe, expect, it } from "vitest";
import { FakeHost } from "./fake-host.js";

const preferences = [
  {
    name: "units",
    title: "Units",
    type: "dropdown" as const,
    data: [
      { title: "Metric", value: "metric" },
      { title: "Imperial", value: "imperial" },
    ],
  },
  { name: "token", title: "Token", type: "password" as const },
  { name: "count", title: "Count", type: "number" as const },
];

describe("FakeHost", () => {
  it("answers as a fresh install", async () => {
    const host = new FakeHost({ extensionId: "com.example.x", providers: ["github"] });
    await expect(host.answer("secrets.get", { name: "apiKey" })).resolves.toEqual({ value: null });
    await expect(host.answer("oauth.token", {})).resolves.toEqual({ token: null });
    await expect(host.answer("oauth.connections", {})).resolves.toEqual({ connections: [] });
    await expect(host.answer("workingHours", {})).resolves.toBeNull();
  });

  it("secrets set, read and deleted", async () => {
    const host = new FakeHost({ secrets: { apiKey: "k-1" } });
    await expect(host.answer("secrets.get", { name: "apiKey" })).resolves.toEqual({ value: "k-1" });
    await host.answer("secrets.set", { name: "other", value: "v" });
    await host.answer("secrets.delete", { name: "apiKey" });
    expect([...host.secrets]).toEqual([["other", "v"]]);
  });

  it("a sign-in gives its token; invalidate marks it for reconnecting; disconnect forgets it", async () => {
    const host = new FakeHost({
      extensionId: "com.example.x",
      title: "X",
      providers: ["github"],
      now: () => Date.UTC(2025, 0, 6, 9),
    });
    const record = host.signIn({ token: "gho_1", account: "octo", scopes: ["repo"] });
    expect(record).toEqual({
      id: "conn-1",
      account: "octo",
      connectedAt: "2025-01-06T09:00:00.000Z",
      scopes: ["repo"],
      needsReconnect: false,
    });
    await expect(host.answer("oauth.token", {})).resolves.toEqual({ token: "gho_1", connection: record });
    await expect(
      host.answer("oauth.describe", { connection: "conn-1", account: "octo", label: "Work" }),
    ).resolves.toEqual({
      connection: { ...record, label: "Work" },
    });
    await host.answer("oauth.invalidate", { connection: "conn-1" });
    await expect(host.answer("oauth.token", {})).resolves.toEqual({ token: null });
    await host.answer("oauth.disconnect", {});
    await expect(host.answer("oauth.connections", {})).resolves.toEqual({ connections: [] });
    await expect(host.answer("oauth.invalidate", { connection: "conn-1" })).rejects.toThrow(
      'X has no connection "conn-1"',
    );
  });

  it("connecting the same account again keeps only the newest", () => {
    const host = new FakeHost({ providers: ["github"] });
    host.signIn({ token: "a", account: "octo" });
    host.signIn({ token: "b", account: "octo" });
    expect(host.knownSecrets()).toEqual(["b"]);
  });

  it("names the provider problem as svc-host does", async () => {
    await expect(new FakeHost({ extensionId: "com.example.x" }).answer("oauth.token", {})).rejects.toThrow(
      "com.example.x declares no sign-in: add a provider to svc.oauth",
    );
    await expect(
      new FakeHost({ extensionId: "com.example.x", providers: ["a", "b"] }).answer("oauth.connect", {}),
    ).rejects.toThrow("com.example.x declares 2 sign-ins (a, b): name the provider");
    await expect(
      new FakeHost({ extensionId: "com.example.x", providers: ["a"] }).answer("oauth.connect", { provider: "c" }),
    ).rejects.toThrow('com.example.x has no sign-in named "c"; declared: a');
  });

  it("setPreference: only declared, non-password options, with a value of their kind", async () => {
    const host = new FakeHost({ preferences });
    const changes: unknown[] = [];
    host.onPreferenceChange((change) => changes.push(change));
    await host.answer("preferences.set", { name: "units", value: "imperial" });
    await host.answer("preferences.set", { name: "count", value: null });
    expect(changes).toEqual([
      { name: "units", value: "imperial" },
      { name: "count", value: null },
    ]);
    await expect(host.answer("preferences.set", { name: "units", value: "kelvin" })).rejects.toThrow(
      '"kelvin" is not a value for "units" (a dropdown)',
    );
    await expect(host.answer("preferences.set", { name: "token", value: "x" })).rejects.toThrow(
      '"token" is a password; only the person sets those, in Settings',
    );
    await expect(host.answer("preferences.set", { name: "colour", value: "red" })).rejects.toThrow(
      '"colour" is not one of this extension\'s preferences',
    );
  });

  it("records notify, openURL and sign-in pages, and reports each as a line", async () => {
    const lines: string[] = [];
    const host = new FakeHost({ providers: ["github"], report: (line) => lines.push(line) });
    await host.answer("notify", { title: "Done", body: "3 deploys" });
    await host.answer("openURL", { url: "https://example.com" });
    await host.answer("oauth.connect", {});
    expect(host.notifications).toEqual([{ title: "Done", body: "3 deploys" }]);
    expect(host.openedURLs).toEqual(["https://example.com"]);
    expect(host.signInPages).toEqual(["github"]);
    expect(lines).toEqual([
      "notify: Done — 3 deploys",
      "openURL: https://example.com",
      "oauth.connect github: the app would open the sign-in page",
    ]);
  });
});
