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

const hex = (s: string) =>
  Array.from(s)
    .map((ch) => ch.charCodeAt(0).toString(16).padStart(4, '0'))
    .join('');
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
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
