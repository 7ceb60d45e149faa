/**
 * The first-party developer tools (extensions/devtools, built by svckit) through the real
 * svc-host and svc-runtime, so each runs in the QuickJS sandbox it ships in (no Intl, no Buffer,
 * no crypto.subtle): one run per tool and action, a file given to a tool, and the hash drop.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, realpath, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO, startHost, useHostWorld } from "../host/harness.js";
import { callHost } from "./harness.js";

const ID = "dev.svc.devtools";
const scene = useHostWorld({ perFile: true });
const run = async (tool: string, body: unknown) => {
  const answer = await callHost(scene.world, "POST", `/v1/tools/${ID}/${tool}`, body);
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return answer.json.blocks as any[];
};
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

describe("developer tools in the sandbox", () => {
  it(
    "starts the host with the built extension, its tools listed with their clipboard kinds",
    { timeout: 60_000 },
    async () => {
      await symlink(join(REPO, "extensions", "devtools"), join(scene.world.bundled, "devtools"));
      scene.host = await startHost(scene.world, { TZ: "UTC" });
      await scene.host.waitFor((e) => e.type === "extension.tools" && e.id === ID, { timeoutMs: 30_000 });
      const { json } = await callHost(scene.world, "GET", "/v1/tools");
      const kinds = Object.fromEntries(
        json.tools.filter((t: any) => t.extensionId === ID).map((t: any) => [t.name, t.clipboardKinds]),
      );
      expect(kinds).toEqual({
        json: ["json"],
        jwt: ["jwt"],
        url: ["url"],
        base64: ["base64"],
        timestamp: ["timestamp"],
        color: ["color"],
        uuid: ["uuid"],
        curl: ["curl"],
        hash: [],
      });
    },
  );

  it("JSON: formats, minifies, and points at a mistake by line and column", async () => {
    expect(await run("json", { values: { input: '{"b":[1,2],"a":null}', indent: "2" } })).toEqual([
      { type: "status", text: "Valid JSON", tone: "positive" },
      { type: "code", text: '{\n  "b": [\n    1,\n    2\n  ],\n  "a": null\n}', language: "json" },
      {
        type: "table",
        rows: [
          { name: "Characters", value: 42 },
          { name: "Before", value: 20 },
        ],
      },
    ]);
    expect(
      (await run("json", { action: "minify", values: { input: '{ "a" : [ 1 ] }', sortKeys: true } }))[1].text,
    ).toBe('{"a":[1]}');
    const broken = await run("json", { action: "validate", values: { input: '{\n  "a": 1,\n  "b" 2\n}' } });
    expect(broken[0]).toEqual({
      type: "status",
      text: 'Not JSON: line 3, column 7: expected ":" after the key, found "2"',
      tone: "critical",
    });
    expect(broken[1].text).toBe('  "b" 2\n      ^');
  });

  it("JWT: header and claims with dates, expired status, never verified", async () => {
    const token = `${b64url({ alg: "HS256", typ: "JWT" })}.${b64url({ sub: "ana", exp: 1_000_000_000, iat: 999_990_000 })}.c2ln`;
    const blocks = await run("jwt", { values: { token: `Bearer ${token}` } });
    expect(blocks[0]).toMatchObject({
      type: "status",
      tone: "critical",
      text: expect.stringMatching(/^Expired \d+y ago$/),
    });
    expect(blocks[1]).toEqual({
      type: "status",
      tone: "neutral",
      text: "Signature not checked: decoding needs no key and proves nothing about who made it (HS256)",
    });
    expect(blocks[3].rows).toEqual([
      { name: "Subject (sub)", value: "ana" },
      { name: "Expires (exp)", value: { type: "date", value: "2001-09-09T01:46:40.000Z" } },
      { name: "Issued (iat)", value: { type: "date", value: "2001-09-08T23:00:00.000Z" } },
    ]);
    expect(JSON.stringify(blocks).toLowerCase()).not.toContain("verified");
    expect((await run("jwt", { values: { token: "abc.def" } }))[0]).toEqual({
      type: "status",
      text: "Not a JWT: it has 2 parts, a JWT has 3 separated by dots",
      tone: "critical",
    });
  });

  it("URL: parts and query as tables; encode and decode", async () => {
    const blocks = await run("url", {
      values: { input: "https://user:pw@example.com:8443/a%20b?q=1&tag=x&tag=y#top" },
    });
    expect(blocks[0].rows).toEqual([
      { name: "Scheme", value: "https" },
      { name: "User", value: "user" },
      { name: "Password", value: "••••••••" },
      { name: "Host", value: "example.com" },
      { name: "Port", value: "8443" },
      { name: "Path", value: "/a%20b" },
      { name: "Query", value: "q=1&tag=x&tag=y" },
      { name: "Fragment", value: "top" },
      { name: "Origin", value: "https://example.com:8443", url: "https://example.com:8443" },
    ]);
    expect(blocks[1].rows).toEqual([
      { name: "q", value: "1" },
      { name: "tag", value: "x" },
      { name: "tag", value: "y" },
    ]);
    expect((await run("url", { action: "encode", values: { input: "a b&c/é" } }))[0].text).toBe("a%20b%26c%2F%C3%A9");
    expect((await run("url", { action: "decode", values: { input: "a%20b+c%C3%A9" } }))[0].text).toBe("a b cé");
    expect((await run("url", { action: "decode", values: { input: "100%" } }))[0].tone).toBe("critical");
  });

  it("Base64: text both ways, URL-safe, binary shown as hex, a given file encoded and decoded to a file", async () => {
    expect((await run("base64", { values: { input: "héllo?>" } }))[0].text).toBe(
      Buffer.from("héllo?>").toString("base64"),
    );
    expect((await run("base64", { values: { input: "héllo?>", variant: "url" } }))[0].text).toBe(
      Buffer.from("héllo?>").toString("base64url"),
    );
    expect((await run("base64", { action: "decode", values: { input: "aMOpbGxvPz4" } }))[0].text).toBe("héllo?>");
    const binary = await run("base64", { action: "decode", values: { input: "AAEC/w==" } });
    expect(binary[0]).toEqual({ type: "status", text: "Binary, 4 bytes: not UTF-8 text", tone: "warning" });
    expect(binary[1].text).toBe(`00000000  ${"00 01 02 ff".padEnd(47)}  |....|`);
    expect((await run("base64", { action: "decode", values: { input: "ab!c" } }))[0].text).toBe(
      'Not base64: "!" at position 3 is not a base64 character',
    );
    const dir = join(scene.world.root, "files");
    await mkdir(dir, { recursive: true });
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252]);
    await writeFile(join(dir, "blob.bin"), bytes);
    expect((await run("base64", { action: "encodeFile", values: { file: [join(dir, "blob.bin")] } }))[0].text).toBe(
      bytes.toString("base64"),
    );
    const decoded = await run("base64", { action: "decodeToFile", values: { input: bytes.toString("base64") } });
    const out = join(await realpath(join(scene.world.home, "Data", ID)), "decoded.bin");
    expect(decoded[1]).toEqual({ type: "files", paths: [out] });
    expect(await readFile(out)).toEqual(bytes);
  });

  it("Timestamp: seconds, milliseconds and ISO each read and shown every way", async () => {
    const [said, { rows }] = await run("timestamp", { values: { input: "1767225600" } });
    expect(said.text).toBe("Read as epoch seconds");
    expect(rows).toEqual([
      { name: "Relative", value: { type: "date", value: "2026-01-01T00:00:00.000Z" } },
      { name: "Local", value: "2026-01-01 00:00:00 UTC" },
      { name: "UTC (ISO 8601)", value: "2026-01-01T00:00:00.000Z" },
      { name: "Epoch seconds", value: "1767225600" },
      { name: "Epoch milliseconds", value: "1767225600000" },
      { name: "Day", value: "Thursday" },
    ]);
    expect((await run("timestamp", { values: { input: "1767225600123" } }))[1].rows[2].value).toBe(
      "2026-01-01T00:00:00.123Z",
    );
    expect((await run("timestamp", { values: { input: "2026-01-01T01:00:00+01:00" } }))[1].rows[3].value).toBe(
      "1767225600",
    );
    expect((await run("timestamp", { values: { input: "next tuesday" } }))[0].tone).toBe("critical");
  });

  it("Colour: every form with a swatch and the contrast ratio", async () => {
    // CSS Color 4's red: oklch(62.796% 0.25768 29.2339); red on white is 4:1 (WCAG).
    const blocks = await run("color", { values: { input: "rgb(255 0 0)" } });
    expect(blocks).toEqual([
      { type: "color", hex: "#ff0000" },
      {
        type: "table",
        rows: [
          { name: "Hex", value: "#ff0000" },
          { name: "RGB", value: "rgb(255 0 0)" },
          { name: "HSL", value: "hsl(0 100% 50%)" },
          { name: "OKLCH", value: "oklch(62.8% 0.2577 29.23)" },
          { name: "Contrast with #ffffff", value: "4:1, AA for large text only" },
        ],
      },
      { type: "color", hex: "#ffffff" },
    ]);
    expect((await run("color", { values: { input: "#ff8800" } }))[1].rows[4].value).toBe("2.39:1, fails WCAG");
    expect((await run("color", { values: { input: "oklch(62.8% 0.2577 29.23)", against: "black" } }))[0]).toEqual({
      type: "color",
      hex: "#ff0000",
    });
    expect((await run("color", { values: { input: "oklch(70% 0.4 150)" } }))[1]).toMatchObject({
      type: "status",
      tone: "warning",
    });
    expect((await run("color", { values: { input: "#777", against: "#fff" } }))[1].rows[4].value).toBe(
      "4.48:1, AA for large text only",
    );
    expect((await run("color", { values: { input: "hsl(0 100% 50%)" } }))[0].hex).toBe("#ff0000");
  });

  it("UUID: v4 and v7 made and read back", async () => {
    const [v4] = await run("uuid", { values: { count: 3 } });
    const v4s = v4.text.split("\n");
    expect(v4s).toHaveLength(3);
    for (const id of v4s) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const [v7] = await run("uuid", { values: { version: "v7", count: 5 } });
    const v7s = v7.text.split("\n");
    expect([...v7s].sort()).toEqual(v7s);
    const read = await run("uuid", { action: "validate", values: { input: v7s[0] } });
    expect(read[0]).toEqual({ type: "status", text: "Valid: a version 7 UUID", tone: "positive" });
    expect(Math.abs(Date.parse(read[1].rows[4].value) - Date.now())).toBeLessThan(60_000);
    expect((await run("uuid", { action: "validate", values: { input: "not-a-uuid" } }))[0].tone).toBe("critical");
  });

  it("curl: the parts as a table and the request as fetch code", async () => {
    const command = `curl 'https://api.example.com/v1/items?page=2' \\\n  -X POST -H 'Content-Type: application/json' \\\n  -H "Authorization: Bearer t0k" --data-raw '{"name":"x"}' -sSL`;
    const blocks = await run("curl", { values: { command } });
    expect(blocks[0].rows).toEqual([
      { name: "Method", value: "POST" },
      { name: "URL", value: "https://api.example.com/v1/items?page=2", url: "https://api.example.com/v1/items?page=2" },
      { name: "Content-Type", value: "application/json" },
      { name: "Authorization", value: "Bearer t0k" },
      { name: "Body", value: '{"name":"x"}' },
      { name: "Options", value: "follows redirects" },
    ]);
    expect(blocks[1].rows).toEqual([{ name: "page", value: "2" }]);
    expect(blocks[2]).toEqual({
      type: "code",
      language: "javascript",
      text: [
        'const response = await fetch("https://api.example.com/v1/items?page=2", {',
        '  method: "POST",',
        "  headers: {",
        '    "Content-Type": "application/json",',
        '    "Authorization": "Bearer t0k",',
        "  },",
        "  body: JSON.stringify({",
        '    "name": "x"',
        "  }),",
        "});",
      ].join("\n"),
    });
    expect((await run("curl", { values: { command: "wget https://x" } }))[0].text).toBe(
      "Not a curl command I can read: it should start with curl",
    );
  });

  it("SHA-256: text and a given file into a table; a drop writes a sha256sum list and copies it", async () => {
    const dir = join(scene.world.root, "hash");
    await mkdir(dir, { recursive: true });
    const big = Buffer.alloc(700_000, 7);
    await writeFile(join(dir, "big.bin"), big);
    await writeFile(join(dir, "small.txt"), "abc");
    const sha = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");
    const blocks = await run("hash", { values: { text: "abc", files: [join(dir, "big.bin")] } });
    expect(blocks).toEqual([
      {
        type: "table",
        rows: [
          { name: "Text (3 bytes)", value: sha("abc") },
          { name: "big.bin (700000 bytes)", value: sha(big) },
        ],
      },
    ]);
    const dropped = await callHost(scene.world, "POST", `/v1/tools/${ID}/hash/drop`, {
      action: "hash",
      files: [join(dir, "small.txt"), join(dir, "big.bin")],
    });
    const list = `${sha("abc")}  small.txt\n${sha(big)}  big.bin\n`;
    const out = join(await realpath(join(scene.world.home, "Data", ID)), "sha256sums.txt");
    expect(dropped).toEqual({
      status: 200,
      json: { message: "Hashed 2 files with SHA-256; the list is copied", outputs: [out], copiedText: list },
    });
    expect(await readFile(out, "utf8")).toBe(list);
  });
});
