import { type FieldDef, type FieldOption, isOptionType, OPTION_SOURCES, optionSourceOf } from '@ks/contracts';
import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { type OptionContext, optionRequest, remoteOptionsQuery, type UiOption } from '../../engine/form/options';

/** An option field whose options the server gives (dictionary, qualification tree, another node) and need no parent. */
export function hasRemoteOptions(f: FieldDef): boolean {
  if (!isOptionType(f.type) || optionSourceOf(f) === OPTION_SOURCES.static) return false;
  const dependent = Boolean(f.groupNumber?.includes('_x')) || Object.keys(f.options?.source?.parents ?? {}).length > 0;
  return !dependent;
}

const asOptions = (list: readonly UiOption[]): FieldOption[] =>
  list.map((o) => ({
    label: o.label,
    value: o.value,
    ...(o.children?.length ? { children: asOptions(o.children) } : {}),
  }));

/**
 * The node's fields as a list shows them: option fields whose options come from the server get those options
 * (through the same cached queries as the form), so cells and cards show labels instead of stored codes and the
 * search inputs offer the choices. A source that fails to load leaves its values shown as stored.
 */
export function useListFields(fields: readonly FieldDef[], ctx: OptionContext): FieldDef[] {
  const remote = useMemo(() => fields.filter(hasRemoteOptions), [fields]);
  const results = useQueries({
    queries: remote.map((f) => {
      const req = optionRequest(f, ctx, {});
      return { ...remoteOptionsQuery(req as NonNullable<typeof req>), enabled: req !== null };
    }),
  });
  // changes whenever a source's options arrive or change
  const stamp = results.map((r) => r.dataUpdatedAt).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `stamp` stands for the results it is made from
  return useMemo(() => {
    if (!remote.length) return [...fields];
    const byCode = new Map<string, UiOption[]>();
    remote.forEach((f, i) => {
      const options = results[i]?.data?.options;
      if (options) byCode.set(f.code, options);
    });
    return fields.map((f) => {
      const options = byCode.get(f.code);
      return options ? { ...f, options: { list: asOptions(options), labelKey: 'label', valueKey: 'value' } } : f;
    });
  }, [fields, remote, stamp]);
}
