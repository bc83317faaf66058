/**
 * Plain one-page PDF documents with Chinese text in the standard STSong-Light CID font (which PDF readers supply):
 * the attachment templates of the demo nodes (generate.ts) and the demo's evidence files (seed/evidence.ts).
 */

export interface Form {
  file: string;
  title: string;
  note: string;
  /** a label, or a label and the value filled in beside it */
  rows: (string | [string, string])[];
  footer: string[];
}

/** The text's UTF-16 code units, big-endian, in hex (what the UniGB-UCS2-H encoding reads). */
const hex = (s: string) => Buffer.from(s, 'utf16le').swap16().toString('hex');
const text = (x: number, y: number, size: number, s: string) => `BT /F1 ${size} Tf ${x} ${y} Td <${hex(s)}> Tj ET`;

export function formPdf(form: Form): Buffer {
  const ops: string[] = [text(200, 770, 22, form.title), text(72, 735, 10, form.note), '0.5 w'];
  let y = 700;
  for (const row of form.rows) {
    const [label, value] = typeof row === 'string' ? [row, ''] : row;
    ops.push(`72 ${y - 30} 451 30 re S`, `200 ${y - 30} m 200 ${y} l S`, text(80, y - 20, 12, label));
    if (value) ops.push(text(210, y - 20, 11, value));
    y -= 30;
  }
  y -= 50;
  for (const line of form.footer) {
    ops.push(text(300, y, 12, line));
    y -= 36;
  }
  const content = ops.join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /UniGB-UCS2-H /DescendantFonts [6 0 R] >>',
    `<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 2 >> /FontDescriptor 7 0 R /DW 1000 >>',
    '<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [-25 -254 1000 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 93 >>',
  ];
  return serialise(objects);
}

/** Display width of a character in ems: CJK and other wide characters 1, the rest ½. */
const widthOf = (ch: string) => (ch.charCodeAt(0) > 0x2e7f ? 1 : 0.5);

/** Cut a line into lines of at most `ems` wide. */
export function wrapLine(line: string, ems: number): string[] {
  const out: string[] = [];
  let cur = '';
  let w = 0;
  for (const ch of line) {
    const cw = widthOf(ch);
    if (w + cw > ems && cur) {
      out.push(cur);
      cur = '';
      w = 0;
    }
    cur += ch;
    w += cw;
  }
  out.push(cur);
  return out;
}

/**
 * A plain multi-page PDF (A4) of a title and lines of text, wrapped to the page, in the same STSong-Light font: records
 * such as the opening record (开标记录). A line starting with '## ' is a heading.
 */
export function textPdf(title: string, lines: string[]): Buffer {
  const SIZE = 11;
  const LEAD = 17;
  const TOP = 740;
  const BOTTOM = 60;
  const pages: string[][] = [[text(297 - title.length * 10, 785, 20, title), '0.5 w', '56 770 m 539 770 l S']];
  let y = TOP;
  const newPage = () => {
    pages.push([]);
    y = 790;
  };
  for (const raw of lines) {
    const heading = raw.startsWith('## ');
    const body = heading ? raw.slice(3) : raw;
    const parts = body === '' ? [''] : wrapLine(body, heading ? 36 : 43);
    if (heading) y -= 6;
    for (const part of parts) {
      if (y < BOTTOM) newPage();
      if (part) pages[pages.length - 1]!.push(text(56, y, heading ? 13 : SIZE, part));
      y -= heading ? LEAD + 3 : LEAD;
    }
  }
  const total = pages.length;
  for (const [i, ops] of pages.entries()) ops.push(text(280, 30, 9, `第 ${i + 1} 页 共 ${total} 页`));

  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '', // pages, below
    '<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /UniGB-UCS2-H /DescendantFonts [4 0 R] >>',
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 2 >> /FontDescriptor 5 0 R /DW 1000 >>',
    '<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [-25 -254 1000 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 93 >>',
  ];
  const kids: string[] = [];
  for (const ops of pages) {
    const content = ops.join('\n');
    objects.push(`<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}\nendstream`);
    const contentRef = objects.length;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contentRef} 0 R >>`,
    );
    kids.push(`${objects.length} 0 R`);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${kids.length} >>`;
  return serialise(objects);
}

/** The objects (numbered from 1, the first the catalogue) as a PDF file with its cross-reference table. */
function serialise(objects: string[]): Buffer {
  // every object is ASCII (text is hex-encoded), so a part's length is its byte length: the offsets are counted as
  // the parts are made, not by measuring the whole file again for each object (that was quadratic: seconds for a
  // report of a thousand pages)
  const parts: string[] = ['%PDF-1.4\n'];
  let at = parts[0]!.length;
  const offsets: number[] = [];
  for (const [i, o] of objects.entries()) {
    offsets.push(at);
    const part = `${i + 1} 0 obj\n${o}\nendobj\n`;
    parts.push(part);
    at += part.length;
  }
  const xref = at;
  parts.push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  for (const off of offsets) parts.push(`${String(off).padStart(10, '0')} 00000 n \n`);
  parts.push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.from(parts.join(''), 'latin1');
}
