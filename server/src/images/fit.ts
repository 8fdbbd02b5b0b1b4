/**
 * Fits every image the model is shown (read_file pictures, MCP images, browser and desktop
 * screenshots, generated images) to what every provider accepts, so a conversation can move
 * between providers and no request is refused for one picture. sharp is imported on first use:
 * the server starts without it.
 *
 * The limits are the strictest of the providers': Anthropic scales anything past 1568 px on the
 * long edge or about 1.15 megapixels down on its side (so larger costs tokens and shows nothing
 * more) and refuses base64 over 5 MB; OpenAI and Gemini accept these sizes as they are.
 */
import type { ImageBlock } from "../vocabulary/messages.js";

/** How large an image may be when it is sent. */
export interface ImageLimits {
  /** Most pixels on the long edge. */
  maxLongEdge: number;
  /** Most pixels in all (width x height). */
  maxPixels: number;
  /** Most bytes of the encoded image (base64 adds a third on top). */
  maxBytes: number;
}

/** What every provider takes: 1568 px on the long edge, 1.15 megapixels, 3.75 MiB. */
export const SEND_LIMITS: ImageLimits = Object.freeze({ maxLongEdge: 1568, maxPixels: 1_150_000, maxBytes: 3.75 * 1024 * 1024 });

/** Media types every provider accepts. */
const SENDABLE = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** A fitted image and how it relates to the original. */
export interface FittedImage {
  data: Buffer;
  mediaType: string;
  width: number;
  height: number;
  /** Size of the image before fitting. */
  originalWidth: number;
  originalHeight: number;
}

/** Raw pixels, as a screen grab gives them. */
export interface RawPixels {
  data: Buffer;
  width: number;
  height: number;
  /** 3 (RGB) or 4 (RGBA). */
  channels: 3 | 4;
  /** The grab's channel order is blue, green, red (X11 and nut-js give BGRA). */
  bgr?: boolean;
}

type Sharp = typeof import("sharp");
let sharpModule: Promise<Sharp> | undefined;

/** sharp, loaded once on first use. */
function loadSharp(): Promise<Sharp> {
  sharpModule ??= import("sharp").then((m) => (m as unknown as { default: Sharp }).default ?? (m as unknown as Sharp));
  return sharpModule;
}

/** The size an image of `width` x `height` is scaled to so it fits `limits` (never enlarged). */
export function fittedSize(width: number, height: number, limits: ImageLimits = SEND_LIMITS): { width: number; height: number } {
  const scale = Math.min(1, limits.maxLongEdge / Math.max(width, height), Math.sqrt(limits.maxPixels / (width * height)));
  if (scale >= 1) return { width, height };
  // The epsilon keeps 3000 * (1568 / 3000) at 1568, not 1567.9999.
  return { width: Math.max(1, Math.floor(width * scale + 1e-9)), height: Math.max(1, Math.floor(height * scale + 1e-9)) };
}

/**
 * Fits an encoded image. One that already fits is returned byte for byte; a larger one is scaled
 * down (PNG stays PNG, anything else becomes JPEG) and, when the bytes are still too many,
 * re-encoded as JPEG at falling quality. Throws when sharp cannot read the image.
 */
export async function fitImage(bytes: Buffer, limits: ImageLimits = SEND_LIMITS): Promise<FittedImage> {
  const sharp = await loadSharp();
  const meta = await sharp(bytes, { animated: false }).metadata();
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (!width || !height) throw new Error("the image has no size (unreadable or empty)");
  const mediaType = `image/${meta.format === "jpg" ? "jpeg" : meta.format}`;
  const target = fittedSize(width, height, limits);
  const unchanged = target.width === width && target.height === height;
  if (unchanged && bytes.length <= limits.maxBytes && SENDABLE.has(mediaType)) {
    return { data: bytes, mediaType, width, height, originalWidth: width, originalHeight: height };
  }
  const pipeline = sharp(bytes, { animated: false }).rotate().resize(target.width, target.height, { fit: "fill" });
  // A photo stays JPEG; drawings, screenshots and formats no provider takes become PNG first.
  const encoded = await encodeWithin(pipeline, meta.format !== "jpeg", limits.maxBytes);
  return { ...encoded, width: target.width, height: target.height, originalWidth: width, originalHeight: height };
}

/** Fits raw pixels (a screenshot) and encodes them as PNG (JPEG only when PNG is too large). */
export async function fitRaw(raw: RawPixels, limits: ImageLimits = SEND_LIMITS): Promise<FittedImage> {
  const sharp = await loadSharp();
  const target = fittedSize(raw.width, raw.height, limits);
  const rgb = toRgb(raw);
  let pipeline = sharp(rgb, { raw: { width: raw.width, height: raw.height, channels: 3 } });
  if (target.width !== raw.width || target.height !== raw.height) pipeline = pipeline.resize(target.width, target.height, { fit: "fill" });
  const encoded = await encodeWithin(pipeline, true, limits.maxBytes);
  return { ...encoded, width: target.width, height: target.height, originalWidth: raw.width, originalHeight: raw.height };
}

/**
 * Packed RGB from a grab. Done here rather than in sharp: sharp resizes before it drops alpha,
 * and X11 grabs carry an alpha of 0, which would scale every pixel to black.
 */
function toRgb(raw: RawPixels): Buffer {
  if (raw.channels === 3 && !raw.bgr) return raw.data;
  const pixels = raw.width * raw.height;
  const out = Buffer.allocUnsafe(pixels * 3);
  const src = raw.data;
  const step = raw.channels;
  const [r, b] = raw.bgr ? [2, 0] : [0, 2];
  for (let i = 0, j = 0; i < pixels * step; i += step, j += 3) {
    out[j] = src[i + r]!;
    out[j + 1] = src[i + 1]!;
    out[j + 2] = src[i + b]!;
  }
  return out;
}

/** Encodes as PNG when asked and small enough, else as JPEG at the best quality that fits. */
async function encodeWithin(pipeline: import("sharp").Sharp, preferPng: boolean, maxBytes: number): Promise<{ data: Buffer; mediaType: string }> {
  if (preferPng) {
    const png = await pipeline.clone().png({ compressionLevel: 6 }).toBuffer();
    if (png.length <= maxBytes) return { data: png, mediaType: "image/png" };
  }
  for (const quality of [85, 70, 55, 40]) {
    const jpeg = await pipeline.clone().flatten({ background: "#ffffff" }).jpeg({ quality }).toBuffer();
    if (jpeg.length <= maxBytes) return { data: jpeg, mediaType: "image/jpeg" };
  }
  throw new Error(`the image does not fit in ${maxBytes} bytes even as a low-quality JPEG`);
}

/** A fitted image as a content block the model sees. */
export function toImageBlock(image: FittedImage): ImageBlock {
  return { type: "image", mediaType: image.mediaType, data: image.data.toString("base64") };
}

/** Fits an image block (an MCP image, a pasted picture); returns it unchanged when it already fits. */
export async function fitImageBlock(block: ImageBlock, limits: ImageLimits = SEND_LIMITS): Promise<ImageBlock> {
  const bytes = Buffer.from(block.data, "base64");
  const fitted = await fitImage(bytes, limits);
  return fitted.data === bytes ? block : toImageBlock(fitted);
}

/** "1430x804 (scaled from 1920x1080)" or "640x480". */
export function describeSize(image: FittedImage): string {
  const scaled = image.width !== image.originalWidth || image.height !== image.originalHeight;
  return scaled ? `${image.width}x${image.height} (scaled from ${image.originalWidth}x${image.originalHeight})` : `${image.width}x${image.height}`;
}

/** The image re-encoded as `format` (png, jpeg or webp), for a file whose name asks for it. */
export async function convertImage(bytes: Buffer, format: "png" | "jpeg" | "webp"): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(bytes).toFormat(format).toBuffer();
}
