import { describe, expect, it } from "vitest";
import { checkForwardedArgs, cutLogMessage, isForwardedOp } from "./forwarded-args.js";
import { moduleRefusal } from "../engine/module-refusal.js";
import { MAX_LOG_CHARS } from "../limits.js";

describe("checkForwardedArgs", () => {
  it("keeps only the op's own keys", () => {
    expect(checkForwardedArgs("end", { key: "k", state: "success", dismissAfter: 3, extensionId: "evil" })).toEqual({
      key: "k",
      state: "success",
      dismissAfter: 3,
    });
    expect(checkForwardedArgs("workingHours", { anything: 1 })).toEqual({});
  });

  it("names the bad field", () => {
    expect(() => checkForwardedArgs("remove", {})).toThrow(new TypeError('remove: "key" is required'));
    expect(() => checkForwardedArgs("notify", { title: 1 })).toThrow('notify: "title" should be a string');
    expect(() => checkForwardedArgs("respond", { replyId: "r", body: 1, status: 2.5 })).toThrow(
      'respond: "status" should be an integer',
    );
    expect(() => checkForwardedArgs("log", { level: "trace", message: "m" })).toThrow(
      'log: "level" should be one of debug, info, warn, error',
    );
    expect(() => checkForwardedArgs("emit", { blip: [] })).toThrow('emit: "blip" should be an object');
    expect(() => checkForwardedArgs("emit", "x")).toThrow("emit: the arguments should be an object");
  });

  it("checks a secret's name in full (SPEC.md: 1–64 of A–Z a–z 0–9 . _ -), as svc-host does", () => {
    const rule = "should be 1–64 characters from A–Z a–z 0–9 . _ -";
    expect(checkForwardedArgs("secrets.get", { name: "a.B_9-".padEnd(64, "x") })).toEqual({
      name: "a.B_9-".padEnd(64, "x"),
    });
    expect(() => checkForwardedArgs("secrets.get", { name: "x".repeat(65) })).toThrow(`secrets.get: "name" ${rule}`);
    expect(() => checkForwardedArgs("secrets.set", { name: "", value: "v" })).toThrow(`secrets.set: "name" ${rule}`);
    expect(() => checkForwardedArgs("secrets.delete", { name: "api key" })).toThrow(`secrets.delete: "name" ${rule}`);
    expect(() => checkForwardedArgs("secrets.get", { name: 7 })).toThrow(`secrets.get: "name" ${rule}`);
  });

  it("keeps null where any value goes (it clears an option, or is the answer), and drops it elsewhere", () => {
    expect(checkForwardedArgs("preferences.set", { name: "region", value: null })).toEqual({
      name: "region",
      value: null,
    });
    expect(checkForwardedArgs("respond", { replyId: "r", body: null, status: null })).toEqual({
      replyId: "r",
      body: null,
    });
    expect(checkForwardedArgs("preferences.set", { name: "region" })).toEqual({ name: "region" });
    expect(() => checkForwardedArgs("remove", { key: null })).toThrow('remove: "key" is required');
  });

  it("strings: 65536 characters pass, one more does not", () => {
    expect(checkForwardedArgs("openURL", { url: "x".repeat(65536) }).url).toHaveLength(65536);
    expect(() => checkForwardedArgs("openURL", { url: "x".repeat(65537) })).toThrow(
      'openURL: "url" should be at most 65536 characters',
    );
  });

  it("knows exactly the forwarded ops", () => {
    expect(isForwardedOp("oauth.describe")).toBe(true);
    expect(isForwardedOp("storage.get")).toBe(false);
    expect(isForwardedOp("__proto__")).toBe(false);
    expect(isForwardedOp("constructor")).toBe(false);
  });
});

describe("cutLogMessage", () => {
  it(`leaves ${MAX_LOG_CHARS} characters alone and cuts one more, saying how much`, () => {
    expect(cutLogMessage("x".repeat(MAX_LOG_CHARS))).toHaveLength(MAX_LOG_CHARS);
    const cut = cutLogMessage("x".repeat(MAX_LOG_CHARS + 1));
    expect(cut).toBe(`${"x".repeat(MAX_LOG_CHARS - 40)}… (41 more characters)`);
    expect(cut.length).toBeLessThanOrEqual(MAX_LOG_CHARS);
  });
});

describe("moduleRefusal", () => {
  it("suggests the platform feature for well-known modules, with or without node:", () => {
    expect(moduleRefusal("node:fs/promises").message).toBe(
      'module "node:fs/promises" is not available in the extension sandbox; use ctx.files',
    );
    expect(moduleRefusal("buffer").message).toBe(
      'module "buffer" is not available in the extension sandbox; use Uint8Array, TextEncoder/TextDecoder and atob/btoa',
    );
    expect(moduleRefusal("constructor")).toEqual({
      message: 'module "constructor" is not available in the extension sandbox',
    });
  });
});
