/** The image module: sizes every provider takes, raw screen grabs, pasted pictures. */
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { fitImageBlock, fitRaw, fittedSize, SEND_LIMITS } from "../../../server/src/images/fit.js";

describe("fittedSize", () => {
  it.each([
    [1920, 1080, 1429, 804],
    [1024, 768, 1024, 768],
    [3000, 500, 1568, 261],
    [800, 2400, 522, 1568],
  ])("%ix%i -> %ix%i", (w, h, ew, eh) => {
    const size = fittedSize(w, h);
    expect(size).toEqual({ width: ew, height: eh });
    expect(size.width * size.height).toBeLessThanOrEqual(SEND_LIMITS.maxPixels);
  });
});

describe("fitRaw", () => {
  it("turns a BGRA grab into an RGB PNG of the fitted size", async () => {
    const width = 1920;
    const height = 1080;
    const raw = Buffer.alloc(width * height * 4);
    // Pure blue in BGRA: B=255, G=0, R=0.
    for (let i = 0; i < raw.length; i += 4) raw[i] = 255;
    const fitted = await fitRaw({ data: raw, width, height, channels: 4, bgr: true });
    expect(fitted.mediaType).toBe("image/png");
    expect([fitted.width, fitted.height, fitted.originalWidth, fitted.originalHeight]).toEqual([1429, 804, 1920, 1080]);
    const { data, info } = await sharp(fitted.data).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([1429, 804, 3]);
    expect([...data.subarray(0, 3)]).toEqual([0, 0, 255]);
  });
});

describe("fitImageBlock", () => {
  it("keeps a block that fits and converts one no provider takes (BMP-like TIFF) to PNG", async () => {
    const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#ff0000" } }).png().toBuffer();
    const block = { type: "image" as const, mediaType: "image/png", data: png.toString("base64") };
    expect(await fitImageBlock(block)).toBe(block);
    const tiff = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#00ff00" } }).tiff().toBuffer();
    const converted = await fitImageBlock({ type: "image", mediaType: "image/tiff", data: tiff.toString("base64") });
    expect(converted.mediaType).toBe("image/png");
  });
});
