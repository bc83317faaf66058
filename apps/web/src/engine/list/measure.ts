/** Rough text measures for laying out list columns and rows before the browser does (14 px text). */

/** The width (px) a line of text takes at 14 px: a Chinese character 14, any other about 8.5. */
export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += (ch.codePointAt(0) ?? 0) >= 0x2e80 ? 14 : 8.5;
  return Math.ceil(w);
}

/** The text of a cell value for measuring: lists joined as the cells show them, objects as nothing. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(valueText).filter(Boolean).join(';');
  return typeof value === 'object' ? '' : String(value);
}

/** How many lines a text takes in a column of this inner width (at most `max`). */
export function lineCount(text: string, innerWidth: number, max = 8): number {
  if (!text) return 1;
  return Math.min(max, Math.max(1, Math.ceil(textWidth(text) / Math.max(1, innerWidth))));
}
