import type { LibraryItem, LibraryKind } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest, type TransportRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { resetPrompts } from '../../components/prompt';
import { queryOf } from '../../test/portal';
import { renderRoutes } from '../../test/render';
import type { Handler } from '../../test/server';
import { menu, setupShell } from '../shell/testData';
import { countMenus } from './SystemPlatformPage';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
  sessionStorage.clear();
});

/** The first page of a file loads the app's lazy chunks: slow on a busy machine. */
const SLOW = { timeout: 20_000 };

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function item(n: number, over: Partial<LibraryItem> & { kind: LibraryKind; series: string }): LibraryItem {
  return {
    id: uuid(n),
    title: `${over.series} ${n}`,
    version: `2026.${n}`,
    description: '',
    fileId: uuid(100 + n),
    fileName: `file-${n}.pdf`,
    fileSize: 2048 * n,
    extension: 'pdf',
    url: `/ks/common/common/file/download?fileId=${uuid(100 + n)}`,
    current: false,
    uploaderName: '管理员',
    createdAt: '2026-11-20T02:00:00.000Z',
    updatedAt: '2026-11-20T02:00:00.000Z',
    ...over,
  };
}

/** A stateful library store: list (kinds, series, keyword, paging), series, current, set-current, delete. */
function libraryServer(items: LibraryItem[]): Record<string, Handler> {
  const store = [...items];
  return {
    'GET /ks/library/v1/items': (req) => {
      const q = queryOf(req);
      const kinds = (q.get('kinds') ?? '').split(',').filter(Boolean);
      const kw = q.get('keyword') ?? '';
      const rows = store.filter(
        (r) =>
          (!kinds.length || kinds.includes(r.kind)) &&
          (!q.get('series') || r.series === q.get('series')) &&
          (!kw || r.title.includes(kw) || r.series.includes(kw)),
      );
      const size = Number(q.get('pageSize') ?? 10);
      const num = Number(q.get('pageNum') ?? 1);
      return { data: { records: rows.slice((num - 1) * size, num * size), total: rows.length } };
    },
    'GET /ks/library/v1/series': (req) => {
      const kind = queryOf(req).get('kind');
      const names = [...new Set(store.filter((r) => r.kind === kind).map((r) => r.series))];
      return {
        data: names.map((s) => ({
          series: s,
          versions: store.filter((r) => r.series === s).length,
          currentVersion: store.find((r) => r.series === s && r.current)?.version ?? null,
        })),
      };
    },
    'GET /ks/library/v1/current': (req) => {
      const q = queryOf(req);
      return { data: store.find((r) => r.kind === q.get('kind') && r.series === q.get('series') && r.current) ?? null };
    },
    'POST /ks/library/v1/set-current': (req) => {
      const { id } = JSON.parse(String(req.body));
      const r = store.find((x) => x.id === id)!;
      for (const x of store) if (x.series === r.series) x.current = x.id === id;
      return { data: r, message: '已设为当前版本' };
    },
    'POST /ks/library/v1/delete': (req) => {
      const { id } = JSON.parse(String(req.body));
      const i = store.findIndex((x) => x.id === id);
      store.splice(i, 1);
      return { data: null, message: '删除成功' };
    },
  };
}

const LETTERS = [
  item(1, {
    kind: 'template',
    series: '信用承诺书',
    version: '2026.1',
    title: '信用承诺书范本（2026 版）',
    current: true,
  }),
  item(2, { kind: 'template', series: '信用承诺书', version: '2025.2', title: '信用承诺书范本（2025 版）' }),
  item(3, { kind: 'template', series: '招标文件范本', version: '2026.1', title: '施工招标文件范本', current: true }),
];
const DOWNLOADS = [
  item(4, { kind: 'tool', series: 'CA 驱动', version: '3.2.0', title: 'CA 数字证书驱动安装包', current: true }),
  item(5, { kind: 'manual', series: '交易平台操作手册', title: '交易平台操作手册（投标人篇）', current: true }),
];
const VIDEOS = [
  item(6, { kind: 'video', series: '投标演示', title: '投标文件递交演示', extension: 'mp4', current: true }),
];

const NODE = 'gnCoding=ZBTB_BZWJ&systemCoding=ZBTB';

describe('/productCenter/fileDownload', () => {
  it('lists tools and manuals for a user with 下载 only, and searches on the server', async () => {
    const { server } = setupShell({ roleType: 'U', handlers: libraryServer([...DOWNLOADS, ...LETTERS]) });
    const user = userEvent.setup();
    renderRoutes(routes, `/productCenter/fileDownload?${NODE}`);
    const table = await screen.findByTestId('library-table', {}, SLOW);
    await waitFor(() => expect(within(table).getAllByTestId('library-title-cell')).toHaveLength(2));
    expect(table.textContent).toContain('CA 数字证书驱动安装包');
    expect(table.textContent).toContain('客户端工具');
    expect(table.textContent).toContain('当前版本');
    expect(queryOf(server.callsTo('/ks/library/v1/items')[0]!).get('kinds')).toBe('tool,manual');
    expect(screen.queryByTestId('library-upload')).toBeNull();
    expect(screen.queryByTestId('library-set-current')).toBeNull();
    expect(within(table).getAllByTestId('library-download')).toHaveLength(2);

    await user.type(within(screen.getByTestId('library-keyword')).getByRole('searchbox'), '手册{Enter}');
    await waitFor(() => expect(queryOf(server.callsTo('/ks/library/v1/items').at(-1)!).get('keyword')).toBe('手册'));
    await waitFor(() => expect(within(table).getAllByTestId('library-title-cell')).toHaveLength(1));

    await user.click(within(table).getByTestId('library-download'));
    await waitFor(() => expect(server.callsTo('/ks/common/common/file/download')).toHaveLength(1));
    expect(queryOf(server.callsTo('/ks/common/common/file/download')[0]!).get('fileId')).toBe(uuid(105));
  });

  it('gives administrators 上传 and the row actions; 删除 asks first', async () => {
    const { server } = setupShell({ roleType: 'M', handlers: libraryServer([...DOWNLOADS]) });
    const user = userEvent.setup();
    renderRoutes(routes, `/productCenter/fileDownload?${NODE}`);
    const table = await screen.findByTestId('library-table', {}, SLOW);
    await waitFor(() => expect(within(table).getAllByTestId('library-title-cell')).toHaveLength(2));
    expect(screen.getByTestId('library-upload')).toBeTruthy();
    await user.click(within(table).getAllByTestId('library-delete')[0]!);
    expect(await screen.findByText(/确认删除「CA 数字证书驱动安装包」3.2.0？/)).toBeTruthy();
    expect(screen.getByText('这是当前版本，删除后剩余最新的版本将成为当前版本。')).toBeTruthy();
    expect(server.callsTo('/ks/library/v1/delete')).toHaveLength(0);
    await user.click(screen.getByTestId('confirm-ok'));
    await waitFor(() => expect(server.callsTo('/ks/library/v1/delete')).toHaveLength(1));
    await waitFor(() => expect(within(table).getAllByTestId('library-title-cell')).toHaveLength(1));
  });
});

describe('上传 (administrators)', () => {
  it('asks for the fields and the file before anything is added', async () => {
    const { server } = setupShell({ roleType: 'M', handlers: libraryServer([...DOWNLOADS]) });
    const user = userEvent.setup();
    renderRoutes(routes, `/productCenter/fileDownload?${NODE}`);
    await user.click(await screen.findByTestId('library-upload', {}, SLOW));
    // the uploader takes the kind's formats only
    expect(await screen.findByText(/支持 pdf、doc、docx/)).toBeTruthy();
    await user.click(await screen.findByTestId('library-upload-save'));
    expect(await screen.findByText('请填写所属资料（系列）')).toBeTruthy();
    expect(screen.getByText('请填写版本号')).toBeTruthy();
    await user.type(
      screen.getByTestId('library-series').querySelector('input') ?? screen.getByTestId('library-series'),
      'CA 驱动',
    );
    await user.type(screen.getByTestId('library-title'), 'CA 驱动 3.3');
    await user.type(screen.getByTestId('library-version'), '3.3.0');
    await user.click(screen.getByTestId('library-upload-save'));
    expect(await screen.findAllByText('请先上传资料文件')).not.toHaveLength(0);
    expect(server.callsTo('/ks/library/v1/add')).toHaveLength(0);
  });
});

describe('/standardFile/letterBook', () => {
  it('groups templates by series with every version and the current one marked; 设为当前版本 moves the mark', async () => {
    const { server } = setupShell({ roleType: 'M', handlers: libraryServer(LETTERS.map((l) => ({ ...l }))) });
    const user = userEvent.setup();
    renderRoutes(routes, `/standardFile/letterBook?${NODE}`);
    await waitFor(() => expect(screen.getAllByTestId('letterbook-series')).toHaveLength(2), SLOW);
    const letters = screen.getAllByTestId('letterbook-series').find((c) => c.dataset.series === '信用承诺书')!;
    await waitFor(() => expect(within(letters).getAllByRole('row')).toHaveLength(3));
    const tagOf = (version: string) =>
      within(within(letters).getByText(version).closest('tr')!).queryByTestId('library-current-tag');
    expect(tagOf('2026.1')).not.toBeNull();
    expect(tagOf('2025.2')).toBeNull();
    const old = within(letters).getByText('2025.2').closest('tr')!;
    await user.click(within(old).getByTestId('library-set-current'));
    await user.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(server.callsTo('/ks/library/v1/set-current')).toHaveLength(1));
    await waitFor(() => expect(tagOf('2025.2')).not.toBeNull());
    expect(tagOf('2026.1')).toBeNull();
  });

  it('filters the series by name; a user sees no changes', async () => {
    setupShell({ roleType: 'U', handlers: libraryServer(LETTERS) });
    const user = userEvent.setup();
    renderRoutes(routes, `/standardFile/letterBook?${NODE}`);
    await waitFor(() => expect(screen.getAllByTestId('letterbook-series')).toHaveLength(2), SLOW);
    expect(screen.queryByTestId('library-upload')).toBeNull();
    expect(screen.queryByTestId('letterbook-new-version')).toBeNull();
    await user.type(within(screen.getByTestId('letterbook-keyword')).getByRole('searchbox'), '招标{Enter}');
    await waitFor(() =>
      expect(screen.getAllByTestId('letterbook-series-name').map((e) => e.textContent)).toEqual(['招标文件范本']),
    );
  });
});

describe('/productCenter/videoDownload', () => {
  it('shows video cards and plays one in the video preview dialog from its preview address', async () => {
    const { server } = setupShell({
      roleType: 'U',
      handlers: {
        ...libraryServer(VIDEOS),
        'GET /ks/common/common/file/preview-url': () => ({ data: { url: '/ks/x/v.mp4?sig=1', expiresAt: '' } }),
      },
    });
    const user = userEvent.setup();
    renderRoutes(routes, `/productCenter/videoDownload?${NODE}`);
    await waitFor(() => expect(screen.getAllByTestId('video-card')).toHaveLength(1), SLOW);
    expect(screen.getByTestId('video-title').textContent).toBe('投标文件递交演示');
    await user.click(screen.getByTestId('video-play'));
    const player = await screen.findByTestId('video-player');
    expect(player.getAttribute('src')).toBe('/ks/x/v.mp4?sig=1');
    expect(queryOf(server.callsTo('/ks/common/common/file/preview-url')[0]!).get('fileId')).toBe(uuid(106));
  });
});

describe('/productCenter/systemPlatform', () => {
  it('describes the live systems with their menus and enters one', async () => {
    const menus = [
      menu({
        gnCoding: 'XY_DIR',
        title: '信用信息',
        nodeProperties: 'directory',
        children: [
          menu({ gnCoding: 'XY_LIST', title: '信用记录' }),
          menu({ gnCoding: 'XY_B', title: '信用分析', nodeProperties: 'analysis2' }),
        ],
      }),
    ];
    const { server } = setupShell({ roleType: 'U', menus });
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, `/productCenter/systemPlatform?${NODE}`);
    const card = await screen.findByTestId('platform-system-XYGL', {}, SLOW);
    expect(card.textContent).toContain('信用管理');
    await waitFor(() => expect(card.textContent).toContain('3 个菜单，2 个功能页面'));
    expect(screen.getByTestId('platform-system-CDYY')).toBeTruthy();
    expect(server.callsTo('/ks/authority/manager/system-list').length).toBeGreaterThan(0);
    await user.click(within(card).getByTestId('platform-enter'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dynamicPage/dynamicIndex'));
    expect(new URLSearchParams(router.state.location.search).get('systemCoding')).toBe('XYGL');
  });

  it('counts menus and pages of a tree', () => {
    expect(countMenus([menu({ gnCoding: 'A', title: 'A' })])).toEqual({ menus: 1, pages: 1 });
  });
});

describe('the commitment book shows the current standard text', () => {
  it('names the current 信用承诺书 template with its version and 下载', async () => {
    const { server } = setupShell({
      roleType: 'U',
      systemCoding: 'XYGL',
      handlers: {
        ...libraryServer(LETTERS),
        'POST /ks/credit/credit/letter/lc-info': () => ({
          data: {
            enterpriseId: uuid(1),
            enterpriseName: '山西示范建设工程有限公司',
            creditCode: '91140100MA0K00000X',
            legalPerson: '王五',
            content: '信用承诺书\n本单位郑重承诺：\n承诺单位：山西示范建设工程有限公司',
            signed: false,
            signedAt: null,
            signerName: null,
          },
        }),
      },
    });
    renderRoutes(routes, '/credit/commitmentbook?gnCoding=XYGL_XYCN&systemCoding=XYGL');
    const box = await screen.findByTestId('standard-template', {}, SLOW);
    expect(within(box).getByTestId('standard-template-title').textContent).toBe('信用承诺书范本（2026 版）');
    expect(within(box).getByTestId('standard-template-version').textContent).toBe('当前版本 2026.1');
    const call = server.callsTo('/ks/library/v1/current')[0] as TransportRequest;
    expect(Object.fromEntries(queryOf(call))).toEqual({ kind: 'template', series: '信用承诺书' });
  });
});
