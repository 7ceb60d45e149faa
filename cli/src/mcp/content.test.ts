import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAX_INLINE_IMAGE_BYTES } from "@svc/api";
import { describe, expect, it } from "vitest";
import { imageContent } from "./content.js";

const folder = mkdtempSync(join(tmpdir(), "svc-mcp-content-"));

describe("imageContent", () => {
  it("sends a picture of exactly MAX_INLINE_IMAGE_BYTES, and names one a byte larger", async () => {
    const atLimit = join(folder, "at-limit.png");
    writeFileSync(atLimit, Buffer.alloc(MAX_INLINE_IMAGE_BYTES, 1));
    await expect(imageContent(atLimit)).resolves.toMatchObject({ type: "image", mimeType: "image/png" });
    const past = join(folder, "past.png");
    writeFileSync(past, Buffer.alloc(MAX_INLINE_IMAGE_BYTES + 1, 1));
    await expect(imageContent(past)).resolves.toEqual({
      type: "text",
      text: `image ${past} (5242881 bytes, over 5242880: not sent)`,
    });
  });

  it("names a file that is not a PNG, JPEG, GIF or WebP", async () => {
    const svg = join(folder, "drawing.svg");
    writeFileSync(svg, "<svg/>");
    await expect(imageContent(svg)).resolves.toEqual({
      type: "text",
      text: `image ${svg} (not a PNG, JPEG, GIF or WebP: not sent)`,
    });
  });
});
