import {
  activeFields,
  type FieldDef,
  type FieldValues,
  fieldRegex,
  isEmpty,
  isNewlyRequired,
  isRequiredIn,
  isTextType,
  normaliseValues,
  regexMessage,
  type ValidateOptions,
  validateField,
  validateRecord,
  validationClock,
  visibleFields,
} from '@ks/contracts';
import { Col, Form, Row } from 'antd';
import { type Ref, useEffect, useImperativeHandle, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { OptionContext } from './options';
import { ReadOnlyValue } from './ReadOnlyValue';
import { canonicalValue, canonicalValues, clearDependants, spanFor } from './values';
import { FieldWidget } from './widgets';

export interface DynamicFormHandle {
  /** runs every §5 rule; resolves the normalised values (normaliseValues) or null when a rule fails (messages shown on the fields, first error scrolled into view) */
  validate(): Promise<FieldValues | null>;
  /** the current raw values */
  getValues(): FieldValues;
  reset(values?: FieldValues): void;
}

export interface DynamicFormProps {
  fields: readonly FieldDef[];
  initialValues?: FieldValues;
  /** detail view: every value as read-only text (options as their labels, joins with ; and /, files as links) */
  readOnly?: boolean;
  systemCoding: string;
  gnCoding: string;
  /** §9 fixedDetail shifts the responsive column thresholds */
  fixedDetail?: boolean;
  /** the window width the columns follow (a preview's simulated width); the real window's by default */
  layoutWidth?: number;
  onValuesChange?: (values: FieldValues) => void;
  ref?: Ref<DynamicFormHandle>;
}

// ── window width (§9 form columns) ──────────────────────────────────────────

function subscribeResize(onChange: () => void) {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}
const windowWidth = () => window.innerWidth;

export function useWindowWidth(): number {
  return useSyncExternalStore(subscribeResize, windowWidth, () => 1920);
}

// ── messages shown while editing (§5) ───────────────────────────────────────

type Errors = Record<string, string>;

/**
 * Messages after a field changed or lost focus. Shown messages follow the values (a fixed field loses its message,
 * a hidden one too); the field itself shows its regex prompt while typing, its validator's message (an ID number, a
 * credit code …) once it loses focus with a value, and 请选择{name} when a switch-1 has just made it required.
 * `sticky` messages (a value cleared on blur) stay until their field changes again.
 */
function liveErrors(
  prev: Errors,
  sticky: ReadonlySet<string>,
  field: FieldDef,
  fields: readonly FieldDef[],
  values: FieldValues,
  clock: ValidateOptions,
  blurred = false,
): Errors {
  const active = new Set(activeFields(fields, values).map((f) => f.code));
  const next: Errors = {};
  for (const [code, message] of Object.entries(prev)) {
    if (code === field.code) continue;
    const f = fields.find((x) => x.code === code);
    if (!f || !active.has(code)) continue;
    if (sticky.has(code)) {
      next[code] = message;
      continue;
    }
    const problem = validateField(f, fields, values, clock, active);
    if (problem) next[code] = problem;
  }
  const problem = validateField(field, fields, values, clock, active);
  if (problem) {
    const regexFails = !!fieldRegex(field) && problem === regexMessage(field);
    const checked = blurred && !!field.validator && !isEmpty(values[field.code]);
    if (prev[field.code] || regexFails || checked || (isNewlyRequired(field, fields) && isEmpty(values[field.code]))) {
      next[field.code] = problem;
    }
  }
  return next;
}

/**
 * A form built from a node's field schema (spec screen 13, §5): a widget per field type (see widgets.tsx), the same
 * rules as the server (packages/contracts engine-rules), switch-1 children shown and required with their switch,
 * dependent selects, date limits, and columns that follow the window width.
 */
export function DynamicForm({
  fields,
  initialValues,
  readOnly = false,
  systemCoding,
  gnCoding,
  fixedDetail = false,
  layoutWidth,
  onValuesChange,
  ref,
}: DynamicFormProps) {
  const [values, setValuesState] = useState<FieldValues>(() => canonicalValues(fields, initialValues));
  const [errors, setErrorsState] = useState<Errors>({});
  const valuesRef = useRef(values);
  const errorsRef = useRef(errors);
  const sticky = useRef(new Set<string>());
  const dirty = useRef(false);
  const cols = useRef(new Map<string, HTMLElement>());
  const viewportWidth = useWindowWidth();
  const width = layoutWidth ?? viewportWidth;
  // today and the current minute in the platform's zone (APP_TZ, from index.html), not the browser's
  const clock = validationClock();
  const ctx: OptionContext = useMemo(() => ({ gnCoding, systemCoding }), [gnCoding, systemCoding]);
  const latest = useRef({ fields, initialValues, onValuesChange });
  latest.current = { fields, initialValues, onValuesChange };

  const setValues = (next: FieldValues) => {
    valuesRef.current = next;
    setValuesState(next);
  };
  const setErrors = (next: Errors) => {
    errorsRef.current = next;
    setErrorsState(next);
  };

  const reset = (next?: FieldValues) => {
    const { fields: fs, initialValues: init } = latest.current;
    dirty.current = false;
    sticky.current.clear();
    setValues(canonicalValues(fs, next ?? init));
    setErrors({});
  };

  // new initial values (a record loaded after the form mounted) replace the values until the user edits them
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset reads the latest props through a ref
  useEffect(() => {
    if (!dirty.current) reset();
  }, [initialValues, fields]);

  const change = (field: FieldDef, raw: unknown, fill?: FieldValues) => {
    dirty.current = true;
    sticky.current.delete(field.code);
    let next: FieldValues = { ...valuesRef.current, [field.code]: canonicalValue(field, raw) };
    if (fill) {
      for (const [code, v] of Object.entries(fill)) {
        const target = fields.find((f) => f.code === code);
        if (target) next[code] = canonicalValue(target, v);
      }
    }
    next = clearDependants(field, fields, next);
    setValues(next);
    setErrors(liveErrors(errorsRef.current, sticky.current, field, fields, next, clock));
    latest.current.onValuesChange?.(next);
  };

  const blur = (field: FieldDef) => {
    const current = valuesRef.current;
    const value = current[field.code];
    const re = fieldRegex(field);
    // §5: a value failing the field's regex is cleared on blur, its prompt stays
    if (re && isTextType(field.type) && !isEmpty(value) && !re.test(String(value).trim())) {
      const next = { ...current, [field.code]: null };
      setValues(next);
      sticky.current.add(field.code);
      setErrors({ ...errorsRef.current, [field.code]: regexMessage(field) });
      latest.current.onValuesChange?.(next);
      return;
    }
    if (sticky.current.has(field.code)) return;
    setErrors(liveErrors(errorsRef.current, sticky.current, field, fields, current, clock, true));
  };

  const invalidText = (field: FieldDef, message: string) => {
    const next = { ...valuesRef.current, [field.code]: null };
    setValues(next);
    sticky.current.add(field.code);
    setErrors({ ...errorsRef.current, [field.code]: message });
    latest.current.onValuesChange?.(next);
  };

  const scrollToFirst = (errs: Errors) => {
    const first = fields.find((f) => errs[f.code]);
    const el = first ? cols.current.get(first.code) : undefined;
    if (!el) return;
    el.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
    const focusable = el.querySelector<HTMLElement>(
      'input:not([disabled]), textarea:not([disabled]), [contenteditable="true"]',
    );
    focusable?.focus({ preventScroll: true });
  };

  useImperativeHandle(
    ref,
    (): DynamicFormHandle => ({
      validate: async () => {
        const current = valuesRef.current;
        const fs = latest.current.fields;
        const errs = validateRecord(fs, current, validationClock());
        sticky.current.clear();
        setErrors(errs);
        if (Object.keys(errs).length) {
          scrollToFirst(errs);
          return null;
        }
        return normaliseValues(fs, current);
      },
      getValues: () => ({ ...valuesRef.current }),
      reset,
    }),
  );

  const shown = visibleFields(fields, values);
  return (
    <Form
      component="div"
      layout="horizontal"
      labelCol={{ flex: '128px' }}
      labelWrap
      colon={false}
      data-testid="dynamic-form"
    >
      <Row gutter={16}>
        {shown.map((field) => {
          const error = readOnly ? undefined : errors[field.code];
          const required = !readOnly && field.type !== 'read-text' && isRequiredIn(field, fields);
          return (
            <Col
              key={field.code}
              span={spanFor(field, width, fixedDetail)}
              data-testid={`form-col-${field.code}`}
              ref={(el) => {
                if (el) cols.current.set(field.code, el);
                else cols.current.delete(field.code);
              }}
            >
              <Form.Item
                label={field.name}
                required={required}
                validateStatus={error ? 'error' : undefined}
                help={error}
                tooltip={field.tips || undefined}
                extra={!readOnly && field.showPrompt && field.prompt ? field.prompt : undefined}
              >
                {readOnly ? (
                  <ReadOnlyValue field={field} values={values} ctx={ctx} />
                ) : (
                  <FieldWidget
                    field={field}
                    fields={fields}
                    values={values}
                    value={values[field.code]}
                    onChange={(v, fill) => change(field, v, fill)}
                    onBlur={() => blur(field)}
                    onInvalidText={(message) => invalidText(field, message)}
                    disabled={!!field.readonly}
                    status={error ? 'error' : undefined}
                    ctx={ctx}
                    clock={clock}
                  />
                )}
              </Form.Item>
            </Col>
          );
        })}
      </Row>
    </Form>
  );
}
