import { describe, expect, it } from "vitest";
import { unansweredAddress } from "./unanswered.js";

describe("unansweredAddress", () => {
  it("is a loopback address whose connection is refused", async () => {
    const address = await unansweredAddress();
    expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await expect(fetch(address)).rejects.toMatchObject({ cause: { code: "ECONNREFUSED" } });
  });
});
