/** How a fetched body's encoding is found: BOM, header, in-document declaration, UTF-8. */
import { describe, expect, it } from "vitest";
import { decodeBody } from "../../../server/src/web/charset.js";

const latin1 = (s: string) => Buffer.from(s, "latin1");
const sjisNihongo = Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]); // 日本語 in Shift_JIS
const page = (head: string, body: Buffer) => Buffer.concat([latin1(`<html><head>${head}</head><body>`), body, latin1("</body></html>")]);

describe("decodeBody", () => {
  const cases: Array<{ name: string; body: Buffer; type: string; markup?: boolean; text: string; encoding: string; source: string }> = [
    { name: "a <meta charset> in a Latin-1 page", body: page('<meta charset="iso-8859-1">', latin1("café")), type: "text/html", text: "café", encoding: "windows-1252", source: "meta" },
    { name: "an http-equiv Content-Type in a Shift_JIS page", body: page('<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">', sjisNihongo), type: "text/html", text: "日本語", encoding: "shift_jis", source: "meta" },
    { name: "the header's charset before the document's", body: page('<meta charset="utf-8">', latin1("café")), type: "text/html; charset=ISO-8859-1", text: "café", encoding: "windows-1252", source: "header" },
    { name: "a quoted header charset", body: latin1("café"), type: 'text/plain; charset="latin1"', markup: false, text: "café", encoding: "windows-1252", source: "header" },
    { name: "a UTF-8 BOM over a wrong header", body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("café")]), type: "text/plain; charset=iso-8859-1", markup: false, text: "café", encoding: "utf-8", source: "bom" },
    { name: "a UTF-16LE BOM", body: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("héllo", "utf16le")]), type: "text/plain", markup: false, text: "héllo", encoding: "utf-16le", source: "bom" },
    { name: "an XML declaration", body: Buffer.concat([latin1('<?xml version="1.0" encoding="ISO-8859-1"?><a>'), latin1("é"), latin1("</a>")]), type: "application/xml", text: '<?xml version="1.0" encoding="ISO-8859-1"?><a>é</a>', encoding: "windows-1252", source: "meta" },
    { name: "a <meta> that claims UTF-16 is read as UTF-8", body: page('<meta charset="utf-16">', Buffer.from("café")), type: "text/html", text: "café", encoding: "utf-8", source: "meta" },
    { name: "an unknown label falls through to UTF-8", body: Buffer.from("café"), type: "text/plain; charset=klingon", markup: false, text: "café", encoding: "utf-8", source: "default" },
    { name: "a <meta> is not read in plain text", body: latin1('<meta charset="iso-8859-1">é'), type: "text/plain", markup: false, text: '<meta charset="iso-8859-1">\ufffd', encoding: "utf-8", source: "default" },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const decoded = decodeBody(c.body, c.type, c.markup ?? true);
      expect(decoded.text.includes(c.text)).toBe(true);
      expect(decoded.encoding).toBe(c.encoding);
      expect(decoded.source).toBe(c.source);
    });
  }

  it("looks for the declaration only in the first 1024 bytes", () => {
    const late = Buffer.concat([latin1(`<html><head><!--${"x".repeat(1100)}--><meta charset="iso-8859-1"></head>`), latin1("é")]);
    expect(decodeBody(late, "text/html", true).source).toBe("default");
  });
});
