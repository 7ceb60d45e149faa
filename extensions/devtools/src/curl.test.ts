import { describe, expect, it } from "vitest";
import { fetchCode, parseCurl, shellWords } from "./curl.js";

describe("shellWords", () => {
  it("reads quotes, escapes, $'…' and line continuations as a shell does", () => {
    expect(shellWords(`curl -H 'A: b c' "x \\"y\\" \\$z" a\\ b \\\n  --data $'l1\\nl2\\x41'`)).toEqual([
      "curl",
      "-H",
      "A: b c",
      'x "y" $z',
      "a b",
      "--data",
      "l1\nl2A",
    ]);
    expect(shellWords("curl 'it'\"'\"'s'")).toEqual(["curl", "it's"]);
    expect(() => shellWords("curl 'open")).toThrow("a ' quote is not closed");
    expect(() => shellWords('curl "open')).toThrow('a " quote is not closed');
  });
});

describe("parseCurl", () => {
  it("reads method, headers, data, user, cookies and flags, clustered or attached", () => {
    const r = parseCurl(
      `curl -sSLk -XPUT -H'Accept: */*' -u ana:pw -b 'a=1' -A agent --compressed example.com/x -d a=1 -d b=2`,
    );
    expect(r).toMatchObject({
      method: "PUT",
      url: "http://example.com/x",
      body: "a=1&b=2",
      followRedirects: true,
      insecure: true,
      compressed: true,
    });
    expect(r.headers).toEqual([
      ["Accept", "*/*"],
      ["Authorization", `Basic ${btoa("ana:pw")}`],
      ["Cookie", "a=1"],
      ["User-Agent", "agent"],
      ["Content-Type", "application/x-www-form-urlencoded"],
    ]);
  });

  it("puts data in the query with -G, posts by default with data, and --json sets its headers", () => {
    const get = parseCurl("curl -G https://x.example/s -d q=a --data-urlencode 'w=a b'");
    expect(get).toMatchObject({ method: "GET", url: "https://x.example/s?q=a&w=a%20b" });
    expect(get.body).toBeUndefined();
    const json = parseCurl(`curl https://x.example --json '{"a":1}'`);
    expect(json.method).toBe("POST");
    expect(json.headers).toEqual([
      ["Content-Type", "application/json"],
      ["Accept", "application/json"],
    ]);
    expect(parseCurl("curl -I https://x.example").method).toBe("HEAD");
  });

  it("names what it cannot read, and what it leaves out", () => {
    expect(() => parseCurl("wget x")).toThrow("it should start with curl");
    expect(() => parseCurl("curl -H")).toThrow("-H needs a value");
    expect(() => parseCurl("curl -s")).toThrow("no URL in the command");
    expect(parseCurl("curl https://x.example -o out.html --frobnicate").ignored).toEqual(["-o", "--frobnicate"]);
  });
});

describe("fetchCode", () => {
  it("writes multipart forms with FormData and keeps curl's no-redirect default", () => {
    expect(fetchCode(parseCurl("curl https://x.example/up -F name=ana -F file=@photo.png"))).toBe(
      [
        "const form = new FormData();",
        'form.append("name", "ana");',
        'form.append("file", /* the file photo.png */ new Blob([]));',
        'const response = await fetch("https://x.example/up", {',
        '  method: "POST",',
        "  body: form,",
        '  redirect: "manual", // curl does not follow redirects without -L',
        "});",
      ].join("\n"),
    );
    expect(fetchCode(parseCurl("curl -L https://x.example"))).toBe(
      'const response = await fetch("https://x.example");',
    );
  });
});
