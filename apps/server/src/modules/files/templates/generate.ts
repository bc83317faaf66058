/**
 * Writes the attachment templates of the demo nodes (plain one-page PDF forms, Chinese text in the standard
 * STSong-Light CID font, which PDF readers supply). Run after changing a form:
 *   npx tsx apps/server/src/modules/files/templates/generate.ts
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Form, formPdf } from './pdf';

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

for (const form of FORMS) writeFileSync(path.join(import.meta.dirname, form.file), formPdf(form));
