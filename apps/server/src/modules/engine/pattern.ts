import { type FieldDef, fieldRegexParts } from '@ks/contracts';
import { RE2JS } from 're2js';
import { createCache } from '../../platform/cache';

/**
 * Field regexes configured by developers run on the server with RE2 (re2js, a pure-JavaScript port): matching takes
 * time linear in the text whatever the pattern, so a pattern such as `^(a+)+$` cannot stall the process the way a
 * backtracking engine (RegExp) does. RE2 has no backreferences and no look-around; a pattern using them is refused
 * when the field is saved (patternProblem), so every saved pattern compiles here.
 */

export const PATTERN_UNSUPPORTED = '正则表达式不受支持：不能使用反向引用（如 \\1）或环视（如 (?=…)、(?!…)），请改写';

/** RegExp flags → RE2 flags (g, y and d do not change whether a text matches; u is RE2's default). */
function flagBits(flags: string): number {
  let bits = 0;
  if (flags.includes('i')) bits |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) bits |= RE2JS.MULTILINE;
  if (flags.includes('s')) bits |= RE2JS.DOTALL;
  return bits;
}

/** Compiled patterns by flags and source (a field list holds a few; every saved record runs its fields'). */
const compiled = createCache<string, RE2JS>('engine.patterns', { max: 2000 });

/** The field's pattern compiled by RE2 (cached), null when it has none; throws when RE2 cannot compile it. */
function compile(field: Pick<FieldDef, 'regex'>): RE2JS | null {
  const parts = fieldRegexParts(field);
  if (!parts) return null;
  const key = `${parts.flags}/${parts.source}`;
  let re = compiled.get(key);
  if (!re) {
    re = RE2JS.compile(RE2JS.translateRegExp(parts.source), flagBits(parts.flags));
    compiled.set(key, re);
  }
  return re;
}

/** Why the field's pattern cannot be used on the server, or null (no pattern, or one RE2 compiles). */
export function patternProblem(field: Pick<FieldDef, 'regex'>): string | null {
  try {
    compile(field);
    return null;
  } catch {
    return PATTERN_UNSUPPORTED;
  }
}

/**
 * Does the text match the field's pattern (anywhere, as RegExp.test does)? The contracts' validateRecord takes this
 * as its `matchesRegex`. A pattern RE2 cannot compile (saved before this check existed) matches nothing: the value is
 * refused with the field's message rather than run by a backtracking engine.
 */
export function matchesFieldPattern(field: Pick<FieldDef, 'regex'>, text: string): boolean {
  try {
    const re = compile(field);
    return re === null || re.test(text);
  } catch {
    return false;
  }
}
