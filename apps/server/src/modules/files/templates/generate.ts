/**
 * Writes the attachment templates of the demo nodes (plain one-page PDF forms, Chinese text in the standard
 * STSong-Light CID font, which PDF readers supply). Run after changing a form:
 *   npx tsx apps/server/src/modules/files/templates/generate.ts
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';

interface Form {
  file: string;
  title: string;
  note: string;
  rows: string[];
  footer: string[];
}

const FORMS: Form[] = [
  {
    file: 'zyzc-sqb.pdf',
    title: '执业注册申请表',
    note: '请如实填写，打印后由申请人签字、聘用单位盖章，扫描后上传。',
    rows: ['姓名', '性别', '身份证号', '联系电话', '注册类别', '注册专业', '证书编号', '发证日期', '聘用单位'],
    footer: ['申请人签字：', '聘用单位（盖章）：', '日期：      年    月    日'],
  },
  {
    file: 'bhsq-sqs.pdf',
    title: '电子保函申请书',
    note: '请如实填写，由申请单位法定代表人签字并加盖公章，扫描后上传。',
    rows: [
      '项目名称',
      '标段名称',
      '保函类型',
      '保函金额（元）',
      '保函有效期',
      '受益人（招标人）',
      '联系人',
      '联系电话',
    ],
    footer: ['申请单位（盖章）：', '法定代表人（签字）：', '日期：      年    月    日'],
  },
];

const hex = (s: string) =>
  Array.from(s)
    .map((ch) => ch.charCodeAt(0).toString(16).padStart(4, '0'))
    .join('');
const text = (x: number, y: number, size: number, s: string) => `BT /F1 ${size} Tf ${x} ${y} Td <${hex(s)}> Tj ET`;

function pdf(form: Form): Buffer {
  const ops: string[] = [text(200, 770, 22, form.title), text(72, 735, 10, form.note), '0.5 w'];
  let y = 700;
  for (const row of form.rows) {
    ops.push(`72 ${y - 30} 451 30 re S`, `200 ${y - 30} m 200 ${y} l S`, text(80, y - 20, 12, row));
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

for (const form of FORMS) writeFileSync(path.join(import.meta.dirname, form.file), pdf(form));
