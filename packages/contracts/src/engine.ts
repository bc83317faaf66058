import { z } from 'zod';
import {
  codeList,
  FIELD_CODE_PATTERN,
  FIELD_TYPES,
  type FieldDef,
  type FieldOption,
  fieldCodeProblem,
  fieldRegex,
  fmt,
  isValidDate,
  isValidDateTime,
  MESSAGES,
  OPTION_SOURCE_TYPES,
  type OptionSourceType,
  PULL_DOWN_SOURCES,
  type PullDownSourceName,
  TODAY,
} from './engine-rules';

/**
 * Schemas of the schema engine (spec §3 form field definition, option, date picker): a developer's field list is
 * parsed with these before it is stored or turned into DDL. The rules themselves live in engine-rules.ts.
 */

export const MAX_FIELDS = 200;
export const MAX_OPTIONS = 5000;

/** A field code: it becomes a column name, so lower case identifier and not a PostgreSQL reserved word. */
export const fieldCodeSchema = z
  .string({ error: MESSAGES.codeFormat })
  .trim()
  .superRefine((code, ctx) => {
    const problem = fieldCodeProblem(code);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const codeListSchema = z
  .string()
  .trim()
  .max(1000)
  .refine((s) => codeList(s).every((c) => FIELD_CODE_PATTERN.test(c)), '上级或下级字段编码格式有误');

const dateLimitSchema = z
  .string()
  .trim()
  .refine((s) => s === '' || s === TODAY || isValidDate(s) || isValidDateTime(s), MESSAGES.dateFormat);

const scalar = z.union([z.string().max(500), z.number()]);

export const fieldOptionSchema: z.ZodType<FieldOption> = z.lazy(() =>
  z.looseObject({
    label: scalar.optional(),
    value: scalar.optional(),
    isDisabled: z.boolean().optional(),
    curInfo: z.unknown().optional(),
    children: z.array(fieldOptionSchema).max(MAX_OPTIONS).optional(),
    check: z.boolean().optional(),
  }),
);

const optionKey = z.string().trim().min(1).max(63);

/** options.source of a `pull-down` field; the server checks that the node or source and its fields exist. */
export const optionSourceSchema = z
  .object({
    gnCoding: z.string().trim().max(63).optional(),
    name: z.enum(Object.keys(PULL_DOWN_SOURCES) as [PullDownSourceName], '下拉数据源不存在').optional(),
    labelField: z.string({ error: '请选择显示字段' }).trim().min(1, '请选择显示字段').max(63),
    valueField: z.string({ error: '请选择取值字段' }).trim().min(1, '请选择取值字段').max(63),
    parents: z.record(fieldCodeSchema, z.string().trim().min(1).max(63)).optional(),
  })
  .refine((s) => !!s.gnCoding !== !!s.name, { message: '下拉数据源须为一个节点或一个内置数据源', path: ['gnCoding'] });

export const fieldOptionsSchema = z.object({
  list: z.array(fieldOptionSchema).max(MAX_OPTIONS, `最多 ${MAX_OPTIONS} 个选项`).default([]),
  labelKey: optionKey.optional(),
  valueKey: optionKey.optional(),
  type: z.enum(OPTION_SOURCE_TYPES as [OptionSourceType], '选项来源不在可选范围内').optional(),
  source: optionSourceSchema.optional(),
});

export const fieldDefSchema = z
  .object({
    code: fieldCodeSchema,
    bianma: fieldCodeSchema.optional(),
    name: z.string({ error: '请输入字段名称' }).trim().min(1, '请输入字段名称').max(50, '最多 50 个字符'),
    type: z.enum(FIELD_TYPES, '字段类型不在可选范围内'),
    show: z.boolean().default(true),
    required: z.union([z.literal(0), z.literal(1), z.literal(2)], '必填只能是 0、1 或 2').default(0),
    col: z.number().int().min(1).max(24).optional(),
    tips: z.string().max(500).optional(),
    readonly: z.boolean().optional(),
    length: z.number().int().min(1, '长度至少为 1').max(100000).optional(),
    prompt: z.string().max(200).optional(),
    showPrompt: z.boolean().optional(),
    parentNode: codeListSchema.optional(),
    childNode: codeListSchema.optional(),
    groupNumber: z.string().trim().max(63).optional(),
    regex: z
      .string()
      .max(500, '正则表达式最多 500 个字符')
      .refine((r) => r.trim() === '' || fieldRegex({ regex: r }) !== null, '正则表达式无效')
      .optional(),
    curInfo: z.unknown().optional(),
    selectMode: z.string().max(63).optional(),
    titleCoding: z.string().max(63).optional(),
    options: fieldOptionsSchema.optional(),
    limitStartDate: dateLimitSchema.optional(),
    limitEndDate: dateLimitSchema.optional(),
    step: z
      .union([z.number().int().min(1).max(1440), z.string().regex(/^\d{1,2}:\d{2}$/)], '时间间隔格式有误')
      .optional(),
  })
  .refine(
    (f) =>
      !f.limitStartDate ||
      !f.limitEndDate ||
      f.limitStartDate === TODAY ||
      f.limitEndDate === TODAY ||
      f.limitStartDate.slice(0, 10) <= f.limitEndDate.slice(0, 10),
    { message: '最早日期不能晚于最晚日期', path: ['limitEndDate'] },
  );
export type FieldDefInput = z.input<typeof fieldDefSchema>;

/** A node's field list: valid codes, unique, and parent / child codes that name fields of the list. */
export const fieldListSchema = z
  .array(fieldDefSchema)
  .max(MAX_FIELDS, `一个节点最多 ${MAX_FIELDS} 个字段`)
  .superRefine((fields, ctx) => {
    const seen = new Set<string>();
    fields.forEach((f, i) => {
      if (seen.has(f.code)) {
        ctx.addIssue({ code: 'custom', message: fmt(MESSAGES.codeDuplicate, { code: f.code }), path: [i, 'code'] });
      }
      seen.add(f.code);
    });
    const codes = new Set(fields.map((f) => f.code));
    fields.forEach((f, i) => {
      for (const key of ['parentNode', 'childNode'] as const) {
        for (const c of codeList(f[key])) {
          if (c === f.code || !codes.has(c)) {
            ctx.addIssue({ code: 'custom', message: `关联字段不存在：${c}`, path: [i, key] });
          }
        }
      }
    });
  });

// The parsed field is a FieldDef: a compile-time check that the schema and the interface agree.
type Parsed = z.output<typeof fieldDefSchema>;
const _sameShape: (f: Parsed) => FieldDef = (f) => f;
void _sameShape;
