import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { idNumberCheckChar } from '@ks/contracts';

let issued = 0;

/**
 * A valid GB 11643 ID number (a real birth date, its check digit) not handed out before in this test process: the
 * demo node 从业人员登记 keeps one 身份证号 per enterprise (a unique key), so each registration needs its own.
 */
export function freshIdNumber(): string {
  issued++;
  const day = new Date(Date.UTC(1980, 0, 1) + Math.floor(issued / 1000) * 86_400_000);
  const base = `140105${day.toISOString().slice(0, 10).replaceAll('-', '')}${String(issued % 1000).padStart(3, '0')}`;
  return `${base}${idNumberCheckChar(base)}`;
}

/** The values of a 从业人员登记 (demo node XYGL_CYRY) of user1's enterprise, with its own 身份证号 (see freshIdNumber). */
export function personValues(xm: string) {
  return {
    xm,
    xb: '男',
    sfzh: freshIdNumber(),
    lxdh: '13900139000',
    szdq: '山西省/太原市/小店区',
    ssqy: '示例建设工程有限公司',
    xl: '本科',
    gznx: 5,
    rzrq: '2019-05-06',
  };
}

/** Every regular file under `root`, relative to it (empty folders do not count). */
export function filesUnder(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(path.relative(root, p));
    }
  };
  if (existsSync(root)) walk(root);
  return out.sort();
}
