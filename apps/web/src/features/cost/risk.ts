import type { CostRisk } from '@ks/contracts';

export const RISK_COLORS: Record<CostRisk, string> = { high: 'red', medium: 'orange', low: 'green' };
