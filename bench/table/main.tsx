/**
 * Bench page (not part of the app): mounts the real DynamicTable with 50 columns × 50 rows inside the app's antd
 * providers and times each mount with the Performance API — from render() to the committed DOM (flushSync), and to
 * the next frame. The first mount is cold (antd styles generated); later mounts are warm. Results go to
 * window.__bench for the runner (bench/table-render.ts).
 */
import type { TableColumn } from '@ks/contracts';
import { Button, Card, ConfigProvider, theme } from 'antd';
import type { ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { AntdProviders } from '../../apps/web/src/app/AntdProviders';
import type { TableRow } from '../../apps/web/src/engine/list/cells';
import { DynamicTable } from '../../apps/web/src/engine/list/DynamicTable';

const VARIANT = new URLSearchParams(location.search).get('variant') ?? 'full';
const TYPES: TableColumn['type'][] =
  VARIANT === 'full' ? ['text', 'status', 'link', 'dui', 'changeStatus', 'state', 'text', 'text'] : ['text'];
const columns: TableColumn[] = Array.from({ length: 49 }, (_, i) => ({
  code: `c${i}`,
  name: `字段${i + 1}`,
  type: TYPES[i % TYPES.length] ?? 'text',
  show: true,
  isSearch: i % 10 === 0,
  isStatus: false,
  listAlignment: i % 3 === 0 ? '左对齐' : i % 3 === 1 ? '右对齐' : '居中',
  width: 120,
}));
columns.push({
  code: 'operations',
  name: '操作',
  type: 'operations',
  show: true,
  isSearch: false,
  isStatus: false,
  listAlignment: '居中',
  width: 200,
});

function rows(seed: number): TableRow[] {
  return Array.from({ length: 50 }, (_, r) => {
    const row: TableRow = {
      id: `r${seed}-${r}`,
      statusColor: '#E6A23C',
      operations: [
        { code: 'view', name: '查看', color: '#409EFF', show: true },
        { code: 'edit', name: '编辑', color: '#409EFF', show: true },
        { code: 'delete', name: '删除', color: '#F56C6C', show: true },
      ],
    };
    columns.forEach((c, i) => {
      if (c.type === 'operations') return;
      if (c.type === 'dui') row[c.code] = r % 2 ? '1' : '0';
      else if (c.type === 'changeStatus') row[c.code] = ['1', '2', '-1'][r % 3];
      else if (c.type === 'status' || c.type === 'state') row[c.code] = ['待审核', '已通过', '已驳回'][(r + i) % 3];
      else row[c.code] = `第${r + 1}行第${i + 1}列 示例建设工程有限公司`;
    });
    return row;
  });
}

const noop = () => {};
const container = document.getElementById('root') as HTMLElement;
const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

const params = new URLSearchParams(location.search);
/** without the pager (to see what it costs) */
const NOPAGER = params.has('nopager');
/** the last mount stays on the page (to look at it) */
const KEEP = params.has('keep');
/** ?look=light|dark: inside an antd Card in that theme, as on a list page (for screenshots, not for timing) */
const LOOK = params.get('look');
if (LOOK === 'dark') {
  document.documentElement.dataset.theme = 'dark';
  document.body.style.background = '#000';
}
const Look = ({ children }: { children: ReactNode }) =>
  LOOK ? (
    <ConfigProvider theme={{ algorithm: LOOK === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm }}>
      <Card>{children}</Card>
    </ConfigProvider>
  ) : (
    children
  );

/** The table has released what it held back for its first frame (rows below the window, columns beyond it). */
const settled = () => !container.querySelector('.ks-table-defer-rows, .ks-table-defer-cols');

async function mountOnce(
  i: number,
  last: boolean,
): Promise<{ commit: number; frame: number; settled: number; cells: number }> {
  const root = createRoot(container);
  const data = rows(i);
  performance.mark(`start-${i}`);
  flushSync(() => {
    root.render(
      <AntdProviders>
        {VARIANT === 'raw' ? (
          <table>
            <tbody>
              {data.map((r) => (
                <tr key={String(r.id)}>
                  {columns.map((c) => (
                    <td key={c.code}>{String(r[c.code] ?? '')}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <Look>
            <DynamicTable
              columns={columns}
              data={data}
              pager={NOPAGER ? undefined : { pageNum: 1, pageSize: 50, total: 500 }}
              onPage={noop}
              rowSelection={VARIANT === 'full' ? { onChange: noop } : undefined}
              onOperation={noop}
            />
          </Look>
        )}
      </AntdProviders>,
    );
  });
  const commit = performance.measure(`commit-${i}`, `start-${i}`).duration;
  await nextFrame();
  const frame = performance.measure(`frame-${i}`, `start-${i}`).duration;
  const cells = container.querySelectorAll('td').length;
  // then until the frame after the deferred work (the rows and columns out of view laid out)
  while (!settled()) await new Promise((resolve) => setTimeout(resolve, 0));
  await nextFrame();
  const settledAt = performance.measure(`settled-${i}`, `start-${i}`).duration;
  if (KEEP && last) return { commit, frame, settled: settledAt, cells };
  root.unmount();
  await nextFrame();
  return { commit, frame, settled: settledAt, cells };
}

/**
 * ?shell: before the first mount, an app shell stays on the page in its own root — antd's providers with a heading and
 * a button in Chinese — as in the app, where a list page opens inside the signed-in shell (antd's theme worked out,
 * the page's fonts in use). The first table mount is then cold only in what is the table's own.
 */
async function shell() {
  const el = document.createElement('div');
  document.body.prepend(el);
  flushSync(() =>
    createRoot(el).render(
      <AntdProviders>
        <Card size="small" title="公共资源交易平台">
          <Button type="primary">新增</Button> 执业注册申请
        </Card>
      </AntdProviders>,
    ),
  );
  await nextFrame();
  await nextFrame();
}

async function run() {
  if (params.has('shell')) await shell();
  const runs = Number(new URLSearchParams(location.search).get('runs') ?? 11);
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await mountOnce(i, i === runs - 1));
  (window as unknown as { __bench: unknown }).__bench = results;
}
void run();
