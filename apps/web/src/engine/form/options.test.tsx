import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureRequest, type TransportRequest } from '../../api/request';
import { toUiOptions, truncateDepth } from './options';
import {
  col,
  dropdownOptions,
  f,
  inputOf,
  openPopup,
  openSelect,
  pick,
  pickPath,
  renderForm,
  setupServer,
} from './test-utils';
import { FILTER_DEBOUNCE_MS } from './widgets';

const PULL_DOWN = '/ks/common/pull-down';
const DIC = '/ks/base/dictionary/config/dic/pull-down';
const CERT = '/ks/common/cert-cascade';
const body = (req: TransportRequest) => JSON.parse(String(req.body)) as Record<string, unknown>;

afterEach(() => {
  configureRequest();
  vi.useRealTimers();
});

describe('option lists', () => {
  it('read labels and values through labelKey / valueKey, keep disabled, children and curInfo', () => {
    expect(
      toUiOptions(
        [{ mc: '施工', dm: 1, isDisabled: true, curInfo: { a: 1 }, children: [{ mc: '房建', dm: 11 }] }],
        'mc',
        'dm',
      ),
    ).toEqual([
      { label: '施工', value: '1', disabled: true, curInfo: { a: 1 }, children: [{ label: '房建', value: '11' }] },
    ]);
    expect(toUiOptions([{ label: '甲', value: 'a' }])).toEqual([{ label: '甲', value: 'a' }]);
    expect(truncateDepth(toUiOptions([{ label: 'a', value: 'a', children: [{ label: 'b', value: 'b' }] }]), 1)).toEqual(
      [{ label: 'a', value: 'a' }],
    );
  });
});

describe('option sources (spec §7 dropdowns)', () => {
  it('pull-down: POST common/pull-down with displayCode, gnCoding, systemCoding; the answer names its keys', async () => {
    const server = setupServer({
      [`POST ${PULL_DOWN}`]: () => ({
        data: {
          list: [
            { qymc: '甲建设公司', xydm: '911' },
            { qymc: '乙建设公司', xydm: '912' },
          ],
          labelKey: 'qymc',
          valueKey: 'xydm',
        },
      }),
    });
    const fields = [f('qy', 'select', { name: '企业', options: { list: [], type: 'pull-down' } })];
    const { handle } = renderForm({ fields, systemCoding: 'XYGL', gnCoding: 'XYGL_ZYZC' });
    await waitFor(() => expect(server.callsTo(PULL_DOWN)).toHaveLength(1));
    const req = server.callsTo(PULL_DOWN)[0] as TransportRequest;
    expect(req.method).toBe('POST');
    expect(body(req)).toEqual({ displayCode: 'qy', gnCoding: 'XYGL_ZYZC', systemCoding: 'XYGL' });
    expect(req.headers.Authorization).toBe('Bearer tok-user');
    await pick('qy', '乙建设公司');
    expect(handle().getValues().qy).toBe('912');
  });

  it('dic: POST the dictionary pull-down with the same body; cert: the qualification tree for a cascader', async () => {
    const server = setupServer({
      [`POST ${DIC}`]: () => ({
        data: { list: [{ label: '本科', value: 'bk' }], labelKey: 'label', valueKey: 'value' },
      }),
      [`POST ${CERT}`]: () => ({
        data: [{ label: '施工总承包', value: 'sg', children: [{ label: '一级', value: '1' }] }],
      }),
    });
    const fields = [
      f('xl', 'radio', { name: '学历', options: { list: [], type: 'dic' } }),
      f('zz', 'cascader', { name: '资质', options: { list: [], type: 'cert' } }),
    ];
    const { handle } = renderForm({ fields, systemCoding: 'S1', gnCoding: 'N1' });
    await screen.findByText('本科');
    expect(body(server.callsTo(DIC)[0] as TransportRequest)).toEqual({
      displayCode: 'xl',
      gnCoding: 'N1',
      systemCoding: 'S1',
    });
    await waitFor(() => expect(server.callsTo(CERT)).toHaveLength(1));
    expect(body(server.callsTo(CERT)[0] as TransportRequest)).toEqual({
      displayCode: 'zz',
      gnCoding: 'N1',
      systemCoding: 'S1',
    });
    await pickPath('zz', ['施工总承包', '一级']);
    act(() => {
      fireEvent.click(within(col('xl')).getByText('本科'));
    });
    expect(handle().getValues()).toEqual({ zz: 'sg/1', xl: 'bk' });
  });

  it('filter-select sends the typed text as key, debounced', async () => {
    const server = setupServer({
      [`POST ${PULL_DOWN}`]: (req) => {
        const key = String(body(req).key ?? '');
        const all = ['太原建工', '大同建设', '太原路桥'];
        return { data: { list: all.filter((n) => n.includes(key)).map((n) => ({ label: n, value: n })) } };
      },
    });
    const fields = [f('qy', 'filter-select', { name: '企业', options: { list: [], type: 'pull-down' } })];
    renderForm({ fields });
    await waitFor(() => expect(server.callsTo(PULL_DOWN)).toHaveLength(1));
    openSelect('qy');
    fireEvent.change(inputOf('qy'), { target: { value: '太' } });
    fireEvent.change(inputOf('qy'), { target: { value: '太原' } });
    await waitFor(() => expect(server.callsTo(PULL_DOWN)).toHaveLength(2), { timeout: FILTER_DEBOUNCE_MS + 2000 });
    expect(body(server.callsTo(PULL_DOWN)[1] as TransportRequest).key).toBe('太原');
    await waitFor(() => expect(dropdownOptions().map((o) => o.textContent)).toEqual(['太原建工', '太原路桥']));
  });

  it('a dependent select sends its parents as whereStr and asks again when they change', async () => {
    const server = setupServer({
      [`POST ${PULL_DOWN}`]: (req) => {
        const where = body(req).whereStr ? JSON.parse(String(body(req).whereStr)) : {};
        const city = where.city as string | undefined;
        const list = city === 'ty' ? [{ label: '小店区', value: 'xd' }] : [{ label: '平城区', value: 'pc' }];
        return { data: { list, labelKey: 'label', valueKey: 'value' } };
      },
    });
    const fields = [
      f('city', 'select', {
        name: '城市',
        childNode: 'county',
        options: {
          list: [
            { label: '太原', value: 'ty' },
            { label: '大同', value: 'dt' },
          ],
        },
      }),
      f('county', 'select', { name: '区县', parentNode: 'city', options: { list: [], type: 'pull-down' } }),
    ];
    const { handle } = renderForm({ fields, initialValues: { city: 'dt' } });
    await waitFor(() => expect(server.callsTo(PULL_DOWN)).toHaveLength(1));
    expect(body(server.callsTo(PULL_DOWN)[0] as TransportRequest).whereStr).toBe('{"city":"dt"}');
    await pick('county', '平城区');
    expect(handle().getValues().county).toBe('pc');
    await pick('city', '太原');
    expect(handle().getValues().county).toBeNull();
    await waitFor(() => expect(server.callsTo(PULL_DOWN)).toHaveLength(2));
    expect(body(server.callsTo(PULL_DOWN)[1] as TransportRequest).whereStr).toBe('{"city":"ty"}');
    await pick('county', '小店区');
    expect(handle().getValues()).toEqual({ city: 'ty', county: 'xd' });
  });

  it('a groupNumber with _x does not ask while a parent is empty: 请先输入或选择上级条件后查询！', async () => {
    const server = setupServer({
      [`POST ${PULL_DOWN}`]: () => ({ data: { list: [{ label: '小店区', value: 'xd' }] } }),
    });
    const fields = [
      f('city', 'text', { name: '城市' }),
      f('county', 'select', {
        name: '区县',
        parentNode: 'city',
        groupNumber: 'g1_x',
        options: { list: [], type: 'pull-down' },
      }),
      f('street', 'checkbox', {
        name: '街道',
        parentNode: 'city',
        groupNumber: 'g2_x',
        options: { list: [{ label: '一', value: '1' }] },
      }),
    ];
    renderForm({ fields });
    openSelect('county');
    await waitFor(() => expect(openPopup()?.textContent).toContain('请先输入或选择上级条件后查询！'));
    expect(await screen.findAllByText('请先输入或选择上级条件后查询！')).not.toHaveLength(0);
    expect(col('street').textContent).toContain('请先输入或选择上级条件后查询！');
    await new Promise((r) => setTimeout(r, 50));
    expect(server.callsTo(PULL_DOWN)).toHaveLength(0);
    fireEvent.change(inputOf('city'), { target: { value: '太原' } });
    await waitFor(() => expect(server.callsTo(PULL_DOWN)).toHaveLength(1));
    expect(body(server.callsTo(PULL_DOWN)[0] as TransportRequest).whereStr).toBe('{"city":"太原"}');
    expect(within(col('street')).getByText('一')).toBeTruthy();
  });

  it('shows 加载中... while the options load', async () => {
    configureRequest({ transport: () => new Promise(() => {}), effects: { prompt: vi.fn() } });
    renderForm({ fields: [f('qy', 'checkbox', { name: '企业', options: { list: [], type: 'dic' } })] });
    expect(await within(col('qy')).findByText('加载中...')).toBeTruthy();
  });

  it('a failed load shows the server message in the widget and 重试 asks again', async () => {
    let fail = true;
    const server = setupServer({
      [`POST ${PULL_DOWN}`]: () =>
        fail
          ? { status: 400, code: 400, message: '下拉数据源不存在' }
          : { data: { list: [{ label: '甲', value: 'a' }] } },
    });
    const fields = [f('qy', 'radio', { name: '企业', options: { list: [], type: 'pull-down' } })];
    renderForm({ fields });
    expect(await within(col('qy')).findByText('选项加载失败：下拉数据源不存在')).toBeTruthy();
    // the widget shows it: no dialog on top
    expect(server.prompt).not.toHaveBeenCalled();
    fail = false;
    act(() => {
      fireEvent.click(within(col('qy')).getByText('重试'));
    });
    expect(await within(col('qy')).findByText('甲')).toBeTruthy();
  });

  it('a session that ended while loading options still ends (10001: dialog, then /login)', async () => {
    const server = setupServer({
      [`POST ${PULL_DOWN}`]: () => ({ status: 200, code: 10001, message: '登录凭证无效或已注销，请重新登录' }),
    });
    renderForm({ fields: [f('qy', 'select', { options: { list: [], type: 'pull-down' } })] });
    await waitFor(() =>
      expect(server.prompt).toHaveBeenCalledWith({ message: '登录凭证无效或已注销，请重新登录', type: 1 }),
    );
    await waitFor(() => expect(server.assign).toHaveBeenCalledWith('/login?reason=10001'));
    expect(server.clearStorage).toHaveBeenCalled();
  });
});
