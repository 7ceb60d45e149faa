import { describe, expect, it } from "vitest";
import { imageMediaType } from "./blocks.js";

describe("imageMediaType", () => {
  it("names the media type of a PNG, JPEG, GIF or WebP, whatever the extension's case", () => {
    expect(imageMediaType("/tmp/a/preview.png")).toBe("image/png");
    expect(imageMediaType("/tmp/a/Photo.JPG")).toBe("image/jpeg");
    expect(imageMediaType("/tmp/a/photo.jpeg")).toBe("image/jpeg");
    expect(imageMediaType("/tmp/a/anim.gif")).toBe("image/gif");
    expect(imageMediaType("/tmp/a/shot.webp")).toBe("image/webp");
  });

  it("is undefined for any other file, a dot file or a dot in a folder's name only", () => {
    expect(imageMediaType("/tmp/a/drawing.svg")).toBeUndefined();
    expect(imageMediaType("/tmp/a/.png")).toBeUndefined();
    expect(imageMediaType("/tmp/shots.png/readme")).toBeUndefined();
    expect(imageMediaType("/tmp/a/png")).toBeUndefined();
  });
});
