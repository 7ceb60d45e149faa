import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Sha256, sha256OfBase64, sha256OfBytes } from "./sha256.js";

const reference = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("Sha256", () => {
  it("matches the FIPS 180-4 examples and node's digest at every length around a block", () => {
    expect(new Sha256().update(new TextEncoder().encode("abc")).hex()).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
    expect(new Sha256().hex()).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    for (let length = 0; length < 200; length++) {
      const bytes = randomBytes(length);
      expect(new Sha256().update(bytes).hex(), `length ${length}`).toBe(reference(bytes));
    }
  });

  it("gives the same hash whatever the slices", async () => {
    const bytes = randomBytes(200_003);
    const sliced = new Sha256();
    for (let at = 0; at < bytes.length; at += 777) sliced.update(bytes.subarray(at, at + 777));
    expect(sliced.hex()).toBe(reference(bytes));
    expect(await sha256OfBase64(bytes.toString("base64"))).toEqual({ hex: reference(bytes), bytes: 200_003 });
    expect(await sha256OfBytes(bytes)).toBe(reference(bytes));
  });
});
