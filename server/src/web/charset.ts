/**
 * The character encoding of a fetched body, found the way browsers find it (WHATWG encoding
 * sniffing, simplified): a byte order mark wins, then the Content-Type header's charset, then for
 * markup a `<meta charset>` / `<meta http-equiv="Content-Type">` or an XML declaration in the first
 * 1024 bytes, then UTF-8. Many Latin-1 and Shift_JIS pages say their charset only in `<meta>`;
 * decoding those as UTF-8 garbles every non-ASCII character.
 */

/** Where the encoding came from, for tests and notes. */
export type CharsetSource = "bom" | "header" | "meta" | "default";

/** The body decoded, with the encoding used and where it was found. */
export interface DecodedBody {
  text: string;
  encoding: string;
  source: CharsetSource;
}

const BOMS: ReadonlyArray<{ bytes: number[]; encoding: string }> = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: "utf-8" },
  { bytes: [0xfe, 0xff], encoding: "utf-16be" },
  { bytes: [0xff, 0xfe], encoding: "utf-16le" },
];

/** Decodes `body`: BOM, header charset, in-document declaration (markup only), UTF-8. */
export function decodeBody(body: Buffer, contentType: string, markup: boolean): DecodedBody {
  const candidates: Array<[string | undefined, CharsetSource]> = [
    [bomEncoding(body), "bom"],
    [headerCharset(contentType), "header"],
    [markup ? declaredInDocument(body) : undefined, "meta"],
  ];
  for (const [label, source] of candidates) {
    const decoder = label ? decoderFor(source === "meta" ? inDocumentLabel(label) : label) : undefined;
    // The BOM is the encoding's own mark: TextDecoder drops it for UTF-8/16 by default.
    if (decoder) return { text: decoder.decode(body), encoding: decoder.encoding, source };
  }
  return { text: new TextDecoder("utf-8").decode(body), encoding: "utf-8", source: "default" };
}

function bomEncoding(body: Buffer): string | undefined {
  return BOMS.find(({ bytes }) => bytes.every((b, i) => body[i] === b))?.encoding;
}

function headerCharset(contentType: string): string | undefined {
  return /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType)?.[1];
}

/**
 * `<meta charset=...>`, `<meta http-equiv="Content-Type" content="...; charset=...">` or
 * `<?xml ... encoding="...">` within the first 1024 bytes, read as Latin-1 so no byte is lost
 * before the encoding is known (every encoding a page may declare keeps ASCII in place).
 */
function declaredInDocument(body: Buffer): string | undefined {
  const head = body.subarray(0, 1024).toString("latin1");
  const xml = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([\w.:-]+)["']/i.exec(head)?.[1];
  if (xml) return xml;
  for (const tag of head.match(/<meta\b[^>]*>/gi) ?? []) {
    const direct = /\bcharset\s*=\s*["']?([\w.:-]+)/i.exec(tag)?.[1];
    if (direct) return direct;
  }
  return undefined;
}

/**
 * A declaration read as ASCII cannot truly be UTF-16 (its bytes would not have read as ASCII), so
 * the HTML spec takes UTF-8 then; x-user-defined likewise means windows-1252.
 */
function inDocumentLabel(label: string): string {
  const lower = label.toLowerCase();
  if (lower.startsWith("utf-16")) return "utf-8";
  return lower === "x-user-defined" ? "windows-1252" : lower;
}

/** A decoder for a charset label, or undefined when the label names no encoding we know. */
function decoderFor(label: string): InstanceType<typeof TextDecoder> | undefined {
  try {
    return new TextDecoder(label.toLowerCase());
  } catch {
    return undefined;
  }
}
