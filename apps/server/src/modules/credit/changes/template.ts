import { RFC_AREA_LABELS, type RfcArea } from '@ks/contracts';
import ExcelJS from 'exceljs';
import { badRequest } from '../../../platform/errors';
import { AREAS, typeOf } from './areas';

/**
 * The change application form (变更申请表) of an area and change type, generated as xlsx: the applicant block, the
 * fields the type changes (before / after, to be filled in), the reason, the annexes to attach, and the seal.
 */
export async function changeTemplate(gnCoding: string, changeTypeCode?: string) {
  const area = AREAS[gnCoding];
  if (!area) throw badRequest('该业务不支持变更');
  const first = area.types[0]!;
  const code = changeTypeCode || `${first.value}/${first.children?.[0]?.value ?? ''}`;
  const type = typeOf(area, code);
  if (!type) throw badRequest('变更类型不在可选范围内');
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('变更申请表');
  ws.columns = [{ width: 22 }, { width: 36 }, { width: 36 }];
  const title = `${RFC_AREA_LABELS[gnCoding as RfcArea]}变更申请表（${type.label}）`;
  ws.mergeCells('A1:C1');
  ws.getCell('A1').value = title;
  ws.getCell('A1').font = { bold: true, size: 16 };
  ws.getCell('A1').alignment = { horizontal: 'center' };
  ws.addRow(['申请企业（盖章）', '', '']);
  ws.addRow(['统一社会信用代码', '', '']);
  ws.addRow(['变更类型', type.label, '']);
  ws.addRow([]);
  const head = ws.addRow(['变更项目', '变更前', '变更后']);
  head.font = { bold: true };
  const editable = new Set(area.editable(type.kind));
  for (const f of area.fieldDefs.filter((x) => editable.has(x.code))) ws.addRow([f.name, '', '']);
  ws.addRow([]);
  ws.addRow(['变更原因', '', '']);
  ws.addRow([
    '附件清单',
    area
      .annexes(type.kind)
      .map((a) => `${a.name}${a.required ? '（必填）' : ''}`)
      .join('、'),
    '',
  ]);
  ws.addRow([]);
  ws.addRow(['经办人', '', '联系电话：']);
  ws.addRow(['申请日期', '', '（企业公章）']);
  const buf = Buffer.from(await wb.xlsx.writeBuffer());
  return { buf, fileName: `${title}.xlsx` };
}
