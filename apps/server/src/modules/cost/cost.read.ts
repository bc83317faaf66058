import type { ParsedCost } from './cost.parse';
import { parseCostXml } from './cost.parse';
import { type CostParseOptions, parseCostXlsx } from './cost.xlsx';

/** The two forms a cost file comes in (docs/cost-xml.md): the XML, and the same data as an xlsx workbook. */
export type CostFormat = 'xml' | 'xlsx';

/** The form of a cost file by its name's extension; null: neither. */
export function costFormatOf(fileName: string): CostFormat | null {
  if (/\.xml$/i.test(fileName)) return 'xml';
  if (/\.xlsx$/i.test(fileName)) return 'xlsx';
  return null;
}

/** The stored content type of each form. */
export const COST_CONTENT_TYPE: Record<CostFormat, string> = {
  xml: 'application/xml',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

async function* bytes(input: AsyncIterable<Buffer | Uint8Array | string>): AsyncGenerator<Buffer | Uint8Array> {
  for await (const chunk of input) yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
}

/**
 * Reads a cost file of either form into the same result, making the same callbacks (each priced line handed to
 * `onLine` as it streams), so that upload, analysis and detection read both alike.
 */
export function parseCost(
  input: AsyncIterable<Buffer | Uint8Array | string>,
  format: CostFormat,
  opts: CostParseOptions = {},
): Promise<ParsedCost> {
  return format === 'xlsx' ? parseCostXlsx(bytes(input), opts) : parseCostXml(input, opts);
}
