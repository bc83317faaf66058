import { NOTICE_FIELD as F, type FieldDef, NOTICE_KINDS } from '@ks/contracts';

/**
 * 招标公告 (ZBTB_ZBGG): the notices of the five-in-one entry are records of this engine node, written in the project's
 * 招标公告 tab (modules/tender/notice.service.ts) and reviewed, listed and exported by the engine; the seed configures
 * these fields (an administrator may add more, and may show or hide them in the list).
 */
const options = (values: readonly string[]) => ({ list: values.map((v) => ({ label: v, value: v })) });
export const NOTICE_FIELDS: FieldDef[] = [
  { code: F.title, name: '公告标题', type: 'text', required: 1, length: 200 },
  { code: F.kind, name: '公告类型', type: 'select', required: 1, options: options(NOTICE_KINDS) },
  { code: F.sectionLabel, name: '项目标段', type: 'text', required: 1, length: 300, readonly: true },
  { code: F.section, name: '标段标识', type: 'text', required: 1, length: 36, readonly: true },
  { code: F.body, name: '公告正文', type: 'editor', required: 1 },
  { code: F.qualLabels, name: '资格要求', type: 'textarea', length: 2000, readonly: true },
  { code: F.qualItems, name: '资格要求代码', type: 'textarea', length: 2000, readonly: true },
  { code: F.qualRelation, name: '资格要求关系', type: 'radio', options: options(['且', '或']) },
  { code: F.affectsBids, name: '是否影响投标文件编制', type: 'radio', options: options(['是', '否']) },
  { code: F.newDeadline, name: '新的投标截止时间', type: 'text', length: 16, readonly: true },
  { code: F.reason, name: '变更原因', type: 'textarea', length: 500 },
];
