import {
  dateLimitsInOrder,
  FIELD_LIMITS,
  FIELD_MESSAGES,
  fieldListRelations,
  isCodeList,
  isDateLimit,
  isTimeStep,
  MAX_FIELDS,
  MAX_OPTIONS,
  MAX_UNIQUE_KEY_FIELDS,
  MAX_UNIQUE_KEYS,
  UNIQUE_MESSAGES,
} from './engine-fields';
import {
  FIELD_TYPES,
  FIELD_VALIDATOR_CODES,
  type FieldDef,
  type FieldOption,
  type FieldValidator,
  fieldCodeProblem,
  fieldRegex,
  isFilterType,
  MESSAGES,
  OPTION_SOURCE_TYPES,
  type OptionSourceType,
  PULL_DOWN_SOURCES,
  type PullDownSourceName,
  validatorFits,
} from './engine-rules';
import { z } from './zod';

/**
 * Schemas of the schema engine (spec §3 form field definition, option, date picker): a developer's field list is
 * parsed with these before it is stored or turned into DDL. The rules themselves (limits, messages, checks) live in
 * engine-fields.ts and engine-rules.ts, which the web's field editor runs without zod.
 */

/** A field code: it becomes a column name, so lower case identifier and not a PostgreSQL reserved word. */
export const fieldCodeSchema = z
  .string({ error: MESSAGES.codeFormat })
  .trim()
  .superRefine((code, ctx) => {
    const problem = fieldCodeProblem(code);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const codeListSchema = z
  .string({ error: FIELD_MESSAGES.codeList })
  .trim()
  .max(FIELD_LIMITS.codeList, FIELD_MESSAGES.codeList)
  .refine(isCodeList, FIELD_MESSAGES.codeList);

const dateLimitSchema = z.string({ error: MESSAGES.dateFormat }).trim().refine(isDateLimit, MESSAGES.dateFormat);

const scalar = z.union(
  [z.string().max(FIELD_LIMITS.optionText, FIELD_MESSAGES.optionText), z.number()],
  FIELD_MESSAGES.optionText,
);
const flag = z.boolean(FIELD_MESSAGES.flag);

export const fieldOptionSchema: z.ZodType<FieldOption> = z.lazy(() =>
  z.looseObject({
    label: scalar.optional(),
    value: scalar.optional(),
    isDisabled: z.boolean().optional(),
    curInfo: z.unknown().optional(),
    children: z.array(fieldOptionSchema).max(MAX_OPTIONS, FIELD_MESSAGES.optionsMax).optional(),
    check: z.boolean().optional(),
  }),
);

const optionKey = z
  .string({ error: FIELD_MESSAGES.optionKey })
  .trim()
  .min(1, FIELD_MESSAGES.optionKey)
  .max(FIELD_LIMITS.key, FIELD_MESSAGES.optionKey);
const keyText = (message: string) =>
  z.string({ error: message }).trim().min(1, message).max(FIELD_LIMITS.key, FIELD_MESSAGES.keyMax);

/** options.source of a `pull-down` field; the server checks that the node or source and its fields exist. */
export const optionSourceSchema = z
  .object({
    gnCoding: z.string().trim().max(FIELD_LIMITS.key, FIELD_MESSAGES.keyMax).optional(),
    name: z.enum(Object.keys(PULL_DOWN_SOURCES) as [PullDownSourceName], FIELD_MESSAGES.sourceName).optional(),
    labelField: keyText(FIELD_MESSAGES.labelField),
    valueField: keyText(FIELD_MESSAGES.valueField),
    parents: z.record(fieldCodeSchema, z.string().trim().min(1).max(FIELD_LIMITS.key)).optional(),
  })
  .refine((s) => !!s.gnCoding !== !!s.name, { message: FIELD_MESSAGES.sourceOne, path: ['gnCoding'] });

export const fieldOptionsSchema = z.object({
  list: z.array(fieldOptionSchema).max(MAX_OPTIONS, FIELD_MESSAGES.optionsMax).default([]),
  labelKey: optionKey.optional(),
  valueKey: optionKey.optional(),
  type: z.enum(OPTION_SOURCE_TYPES as [OptionSourceType], FIELD_MESSAGES.optionSource).optional(),
  source: optionSourceSchema.optional(),
});

export const fieldDefSchema = z
  .object({
    code: fieldCodeSchema,
    bianma: fieldCodeSchema.optional(),
    name: z
      .string({ error: FIELD_MESSAGES.nameRequired })
      .trim()
      .min(1, FIELD_MESSAGES.nameRequired)
      .max(FIELD_LIMITS.name, FIELD_MESSAGES.nameMax),
    type: z.enum(FIELD_TYPES, FIELD_MESSAGES.type),
    show: flag.default(true),
    required: z.union([z.literal(0), z.literal(1), z.literal(2)], FIELD_MESSAGES.required).default(0),
    col: z
      .number(FIELD_MESSAGES.col)
      .int(FIELD_MESSAGES.col)
      .min(1, FIELD_MESSAGES.col)
      .max(FIELD_LIMITS.col, FIELD_MESSAGES.col)
      .optional(),
    tips: z.string(FIELD_MESSAGES.tips).max(FIELD_LIMITS.tips, FIELD_MESSAGES.tips).optional(),
    readonly: flag.optional(),
    length: z
      .number(FIELD_MESSAGES.lengthMin)
      .int(FIELD_MESSAGES.lengthMin)
      .min(1, FIELD_MESSAGES.lengthMin)
      .max(FIELD_LIMITS.length, FIELD_MESSAGES.lengthMax)
      .optional(),
    prompt: z.string(FIELD_MESSAGES.prompt).max(FIELD_LIMITS.prompt, FIELD_MESSAGES.prompt).optional(),
    showPrompt: flag.optional(),
    parentNode: codeListSchema.optional(),
    childNode: codeListSchema.optional(),
    groupNumber: z
      .string(FIELD_MESSAGES.groupNumber)
      .trim()
      .max(FIELD_LIMITS.groupNumber, FIELD_MESSAGES.groupNumber)
      .optional(),
    regex: z
      .string(FIELD_MESSAGES.regexMax)
      .max(FIELD_LIMITS.regex, FIELD_MESSAGES.regexMax)
      .refine((r) => r.trim() === '' || fieldRegex({ regex: r }) !== null, FIELD_MESSAGES.regexInvalid)
      .optional(),
    curInfo: z.unknown().optional(),
    selectMode: z.string(FIELD_MESSAGES.keyMax).max(FIELD_LIMITS.key, FIELD_MESSAGES.keyMax).optional(),
    titleCoding: z.string(FIELD_MESSAGES.keyMax).max(FIELD_LIMITS.key, FIELD_MESSAGES.keyMax).optional(),
    options: fieldOptionsSchema.optional(),
    limitStartDate: dateLimitSchema.optional(),
    limitEndDate: dateLimitSchema.optional(),
    step: z.union([z.number(), z.string()], FIELD_MESSAGES.step).refine(isTimeStep, FIELD_MESSAGES.step).optional(),
    filter: z.boolean(FIELD_MESSAGES.filter).optional(),
    validator: z.enum(FIELD_VALIDATOR_CODES as [FieldValidator], FIELD_MESSAGES.validator).optional(),
  })
  .refine((f) => f.filter !== true || isFilterType(f.type), { message: MESSAGES.filterType, path: ['filter'] })
  .refine((f) => f.validator === undefined || validatorFits(f.validator, f.type), {
    message: FIELD_MESSAGES.validatorType,
    path: ['validator'],
  })
  .refine((f) => dateLimitsInOrder(f.limitStartDate, f.limitEndDate), {
    message: FIELD_MESSAGES.dateOrder,
    path: ['limitEndDate'],
  });
export type FieldDefInput = z.input<typeof fieldDefSchema>;

/** A node's field list: valid codes, unique, and parent / child codes that name fields of the list. */
export const fieldListSchema = z
  .array(fieldDefSchema)
  .max(MAX_FIELDS, FIELD_MESSAGES.fieldsMax)
  .superRefine((fields, ctx) => {
    for (const r of fieldListRelations(fields)) {
      ctx.addIssue({ code: 'custom', message: r.message, path: [r.index, r.key] });
    }
  });

// The parsed field is a FieldDef: a compile-time check that the schema and the interface agree.
type Parsed = z.output<typeof fieldDefSchema>;
const _sameShape: (f: Parsed) => FieldDef = (f) => f;
void _sameShape;

/** A node's unique key (engine-fields.ts UniqueKey); the field list decides whether its codes exist (uniqueKeyProblems). */
export const uniqueKeySchema = z.object({
  fields: z
    .array(fieldCodeSchema)
    .min(1, UNIQUE_MESSAGES.fieldsMin)
    .max(MAX_UNIQUE_KEY_FIELDS, UNIQUE_MESSAGES.fieldsMax),
  withinEnterprise: z.boolean().default(false),
});
export const uniqueKeyListSchema = z.array(uniqueKeySchema).max(MAX_UNIQUE_KEYS, UNIQUE_MESSAGES.keysMax);
