import { type FieldDef, MESSAGES } from '@ks/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest, type TransportRequest } from '../../api/request';
import { resetPrompts } from '../../components/prompt';
import type { Handler } from '../../test/server';
import { FIELDS_CONFLICT, UNSAVED_FIELDS } from './SetUpFormPage';
import {
  bodyOf,
  confirmPopover,
  findFieldError,
  pickOption,
  renderConfig,
  setupConfigServer,
  type User,
} from './testkit';

const PATH = '/system/setUpForm?gnCoding=A1';
const FIELDS_URL = '/ks/common/array/fields';
const SAVE_URL = '/ks/config/node/fields';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const sampleFields = (): FieldDef[] => [
  { code: 'xm', name: '姓名', type: 'text', required: 1, length: 20 },
  { code: 'xb', name: '性别', type: 'sex', required: 1 },
  {
    code: 'lb',
    name: '类别',
    type: 'select',
    options: {
      list: [
        { label: '甲类', value: 'a' },
        { label: '乙类', value: 'b' },
      ],
    },
  },
  { code: 'zc', name: '职称', type: 'select', titleCoding: 'PRO_TITLE', options: { list: [], type: 'dic' } },
  { code: 'rq', name: '发证日期', type: 'date', limitEndDate: 'today' },
];

/** The config fake server plus a node A1 with fields (version 3), the field save (version-checked) and dictionaries. */
function setup(handlers: Record<string, Handler> = {}) {
  const node = { fields: sampleFields(), version: 3 };
  const server = setupConfigServer(
    {
      [`POST ${FIELDS_URL}`]: () => ({ data: structuredClone(node) }),
      [`PUT ${SAVE_URL}`]: (req: TransportRequest) => {
        const b = bodyOf<{ fields: FieldDef[]; version: number }>(req);
        if (b.version !== node.version) return { status: 409, code: 409, message: '字段已被他人修改，请刷新后重试' };
        node.fields = b.fields;
        node.version += 1;
        return { data: structuredClone(node), message: '保存成功' };
      },
      'GET /ks/base/dictionary/config/dic/codes': () => ({
        data: [
          { code: 'EDUCATION', count: 5, sample: ['中专及以下', '大专', '本科'] },
          { code: 'PRO_TITLE', count: 4, sample: ['初级', '中级', '高级'] },
        ],
      }),
      'POST /ks/base/dictionary/config/dic/pull-down': () => ({
        data: { list: [{ label: '工程师', value: 'gcs' }], labelKey: 'label', valueKey: 'value' },
      }),
      ...handlers,
    },
    PATH,
  );
  return { server, node };
}

const rowCodes = () => screen.getAllByTestId('field-row-code').map((e) => e.textContent);
const saves = (server: ReturnType<typeof setup>['server']) => server.callsTo(SAVE_URL);
const loaded = () => waitFor(() => expect(rowCodes()).toEqual(['xm', 'xb', 'lb', 'zc', 'rq']));
const drawer = () => screen.getByTestId('field-drawer');

/** Types text at once (a paste): the keystrokes are not what these tests are about. */
async function fill(user: User, el: HTMLElement, text: string) {
  await user.click(el);
  await user.paste(text);
}

async function addField(user: User, code: string, name: string, extra?: (u: User) => Promise<void>) {
  await user.click(screen.getByTestId('field-add'));
  await fill(user, await screen.findByTestId('field-code'), code);
  await fill(user, screen.getByTestId('field-name'), name);
  if (extra) await extra(user);
  await user.click(screen.getByTestId('field-ok'));
}

const visibleConfirm = () =>
  [...document.querySelectorAll<HTMLElement>('.ant-modal-confirm')].find(
    (d) =>
      !d.className.includes('-leave') && (d.closest('.ant-modal-wrap') as HTMLElement | null)?.style.display !== 'none',
  ) ?? null;
const findConfirm = (title: string) =>
  waitFor(() => {
    const d = visibleConfirm();
    if (!d?.textContent?.includes(title)) throw new Error(`no dialog ${title}`);
    return d;
  });
const confirmButton = (dialog: HTMLElement, label: string) =>
  within(dialog).getByText(label).closest('button') as HTMLButtonElement;

/** Picks an option of a Select whose options repeat another open-before Select's (the newest list is the last). */
async function pickLastOption(user: User, testId: string, text: string) {
  await user.click(within(screen.getByTestId(testId)).getByRole('combobox'));
  const option = await waitFor(() => {
    const all = Array.from(document.querySelectorAll<HTMLElement>('.ant-select-item-option')).filter(
      (e) => e.textContent?.trim() === text,
    );
    if (all.length < 2) throw new Error(`the list of ${testId} is not open`);
    return all[all.length - 1]!;
  });
  await user.click(option);
}

const filterGroups = () =>
  Array.from(screen.getByTestId('filter-preview').querySelectorAll('[data-testid^="filter-group-"]')).map((e) =>
    e.getAttribute('data-testid')?.replace('filter-group-', ''),
  );

describe('字段设置', { timeout: 45_000 }, () => {
  it('loads the node’s fields with their version, and previews the form and the filter card', async () => {
    const { server } = setup();
    renderConfig(PATH);
    await loaded();
    expect(bodyOf(server.callsTo(FIELDS_URL)[0]!)).toEqual({ gnCoding: 'A1', systemCoding: 'XYGL' });
    expect(screen.getByTestId('fields-version').textContent).toBe('第 3 版 · 共 5 个字段');
    expect(screen.getAllByTestId('field-row-type').map((e) => e.textContent)).toEqual([
      '单行文本（text）',
      '性别（sex）',
      '下拉单选（select）',
      '下拉单选（select）',
      '日期（date）',
    ]);
    // the real form, one column per field
    const preview = screen.getByTestId('form-preview');
    for (const code of ['xm', 'xb', 'lb', 'zc', 'rq'])
      expect(within(preview).getByTestId(`form-col-${code}`)).toBeTruthy();
    // a saved dictionary field asks the server for its options by its saved definition
    await waitFor(() => expect(server.callsTo('/ks/base/dictionary/config/dic/pull-down').length).toBeGreaterThan(0));
    // default filter groups: the shown single-value option fields; the dictionary's come at run time
    expect(filterGroups()).toEqual(['xb', 'lb', 'zc']);
    expect(screen.getByTestId('filter-notes').textContent).toContain('职称（zc）：选项来自字典 PRO_TITLE，运行时加载');
    expect(within(screen.getByTestId('filter-preview')).getByText('甲类')).toBeTruthy();
    // the node's other parts, keeping the node
    const bar = await screen.findByTestId('node-target-bar');
    await waitFor(() =>
      expect(within(bar).getByText('列表列设置').getAttribute('href')).toBe(
        '/system/setUpList?systemCoding=XYGL&gnCoding=A1',
      ),
    );
    expect(within(bar).getByText('卡片样式').getAttribute('href')).toBe(
      '/system/setTypeCard?systemCoding=XYGL&gnCoding=A1',
    );
    expect(within(bar).queryByText('字段设置')).toBeNull();
    expect(saves(server)).toHaveLength(0);
  });

  it('refuses a field code that breaks the pattern or is a reserved word, and sends nothing', async () => {
    const user = userEvent.setup();
    const { server } = setup();
    renderConfig(PATH);
    await loaded();
    await addField(user, 'Xm-1', '编号');
    await findFieldError(MESSAGES.codeFormat);
    expect(drawer()).toBeTruthy();
    const code = screen.getByTestId('field-code');
    await user.clear(code);
    await fill(user, code, 'select');
    await findFieldError('字段编码不能使用数据库保留字：select');
    await user.click(screen.getByTestId('field-ok'));
    await findFieldError('字段编码不能使用数据库保留字：select');
    // a duplicate is the list rule of the contracts (checked on 确定)
    await user.clear(code);
    await fill(user, code, 'xm');
    await user.click(screen.getByTestId('field-ok'));
    await findFieldError('字段编码不能重复：xm');
    await user.click(screen.getByTestId('field-cancel'));
    await waitFor(() => expect(screen.queryByTestId('field-form')).toBeNull());
    expect(rowCodes()).toEqual(['xm', 'xb', 'lb', 'zc', 'rq']);
    expect((screen.getByTestId('fields-save') as HTMLButtonElement).disabled).toBe(true);
    expect(saves(server)).toHaveLength(0);
  });

  it('saves the fields with the version it started from, and takes the new version', async () => {
    const user = userEvent.setup();
    const { server, node } = setup();
    renderConfig(PATH);
    await loaded();
    await addField(user, 'lxdh', '联系电话', async (u) => {
      await fill(u, screen.getByTestId('field-regex'), '^1\\d{10}$');
      await fill(u, screen.getByTestId('field-prompt'), '请输入11位手机号码');
    });
    await waitFor(() => expect(rowCodes()).toEqual(['xm', 'xb', 'lb', 'zc', 'rq', 'lxdh']));
    expect(screen.getByTestId('fields-dirty')).toBeTruthy();
    await user.click(screen.getByTestId('fields-save'));
    await waitFor(() => expect(saves(server)).toHaveLength(1));
    expect(bodyOf(saves(server)[0]!)).toEqual({
      gnCoding: 'A1',
      version: 3,
      fields: [
        ...sampleFields(),
        {
          code: 'lxdh',
          name: '联系电话',
          type: 'text',
          required: 0,
          show: true,
          regex: '^1\\d{10}$',
          prompt: '请输入11位手机号码',
        },
      ],
      // the node's unique keys are sent with the fields (none here)
      uniqueKeys: [],
    });
    expect(await screen.findByText('保存成功')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('fields-version').textContent).toBe('第 4 版 · 共 6 个字段'));
    expect(screen.queryByTestId('fields-dirty')).toBeNull();
    expect(node.version).toBe(4);
  });

  it('checks the whole list with the contracts’ rules before saving (a relation to a deleted field)', async () => {
    const user = userEvent.setup();
    const fields = sampleFields();
    fields[4] = { ...fields[4]!, parentNode: 'lb' };
    const { server } = setup({ [`POST ${FIELDS_URL}`]: () => ({ data: { fields, version: 3 } }) });
    renderConfig(PATH);
    await loaded();
    await user.click(screen.getAllByTestId('field-remove')[2]!);
    expect(await screen.findByText(/字段 发证日期 以它为上级或下级/)).toBeTruthy();
    await confirmPopover(user);
    await waitFor(() => expect(rowCodes()).toEqual(['xm', 'xb', 'zc', 'rq']));
    await user.click(screen.getByTestId('fields-save'));
    const err = await screen.findByTestId('row-error-relations');
    expect(err.textContent).toBe('关联字段不存在：lb');
    expect(err.closest('tr')?.querySelector('[data-testid="field-row-code"]')?.textContent).toBe('rq');
    expect(screen.getByTestId('fields-error').textContent).toContain('字段配置有误');
    expect(saves(server)).toHaveLength(0);
  });

  it('puts the server’s 400 field errors on the rows they name', async () => {
    const user = userEvent.setup();
    setup({
      [`PUT ${SAVE_URL}`]: () => ({
        status: 400,
        code: 400,
        message: '请求参数有误',
        data: { fieldErrors: { 'fields.4.titleCoding': ['字典不存在：PRO_TITLE'], version: ['版本有误'] } },
      }),
    });
    renderConfig(PATH);
    await loaded();
    await user.click(screen.getAllByTestId('field-up')[4]!);
    await user.click(screen.getByTestId('fields-save'));
    const err = await screen.findByTestId('row-error-options');
    expect(err.textContent).toBe('字典不存在：PRO_TITLE');
    // index 4 of the list sent: 发证日期 moved above 职称, so the error is on 职称's row (4th when loaded)
    expect(err.closest('tr')?.querySelector('[data-testid="field-row-code"]')?.textContent).toBe('zc');
    expect(screen.getByTestId('fields-error').textContent).toContain('version：版本有误');
    // the drawer of that row shows the error on its field
    const rows = screen.getAllByTestId('field-edit');
    await user.click(rows[4]!);
    await findFieldError('字典不存在：PRO_TITLE');
  });

  it('on a 409 says so and reloads the stored fields on 刷新', async () => {
    const user = userEvent.setup();
    const { server, node } = setup();
    renderConfig(PATH);
    await loaded();
    // someone else saves first
    node.fields = [...sampleFields(), { code: 'qt', name: '他人新增', type: 'text' }];
    node.version = 4;
    await user.click(screen.getAllByTestId('field-down')[0]!);
    await user.click(screen.getByTestId('fields-save'));
    const dialog = await findConfirm('保存失败');
    expect(dialog.textContent).toContain('字段已被他人修改，请刷新后重试');
    expect(screen.getByTestId('fields-conflict').textContent).toContain('字段已被他人修改');
    await user.click(confirmButton(dialog, '刷新'));
    await waitFor(() => expect(rowCodes()).toEqual(['xm', 'xb', 'lb', 'zc', 'rq', 'qt']));
    expect(screen.getByTestId('fields-version').textContent).toBe('第 4 版 · 共 6 个字段');
    expect(screen.queryByTestId('fields-conflict')).toBeNull();
    expect(server.callsTo(FIELDS_URL)).toHaveLength(2);
    expect(FIELDS_CONFLICT).toBe('节点字段已被他人修改，请刷新后重试');
  });

  it('uses its own words on a 409 without a message', async () => {
    const user = userEvent.setup();
    setup({ [`PUT ${SAVE_URL}`]: () => ({ status: 409, code: 409, message: '' }) });
    renderConfig(PATH);
    await loaded();
    await user.click(screen.getAllByTestId('field-down')[0]!);
    await user.click(screen.getByTestId('fields-save'));
    expect((await screen.findByTestId('fields-conflict')).textContent).toContain(FIELDS_CONFLICT);
  });

  it('locks the type (and code) of a saved field, explains why, and locks a new field once saved', async () => {
    const user = userEvent.setup();
    setup();
    renderConfig(PATH);
    await loaded();
    expect(screen.getAllByTestId('field-type-lock')).toHaveLength(5);
    await user.click(screen.getAllByTestId('field-edit')[0]!);
    const type = await screen.findByTestId('field-type');
    expect(type.className).toContain('ant-select-disabled');
    expect((screen.getByTestId('field-code') as HTMLInputElement).disabled).toBe(true);
    await user.hover(screen.getByTestId('type-locked'));
    expect(await screen.findByText(/保存后不能修改类型或编码/)).toBeTruthy();
    await user.click(screen.getByTestId('field-cancel'));
    // a new field may take any type until it is saved
    await user.click(screen.getByTestId('field-add'));
    expect((await screen.findByTestId('field-type')).className).not.toContain('ant-select-disabled');
    await fill(user, screen.getByTestId('field-code'), 'sl');
    await fill(user, screen.getByTestId('field-name'), '数量');
    await pickOption(user, 'field-type', '数字（number）');
    await user.click(screen.getByTestId('field-ok'));
    await waitFor(() => expect(rowCodes()).toContain('sl'));
    expect(screen.getAllByTestId('field-type-lock')).toHaveLength(5);
    await user.click(screen.getByTestId('fields-save'));
    await waitFor(() => expect(screen.getAllByTestId('field-type-lock')).toHaveLength(6));
    await user.click(screen.getAllByTestId('field-edit')[5]!);
    expect((await screen.findByTestId('field-type')).className).toContain('ant-select-disabled');
  });

  it('refuses a new field that takes a saved code with another type', async () => {
    const user = userEvent.setup();
    setup();
    renderConfig(PATH);
    await loaded();
    await user.click(screen.getAllByTestId('field-remove')[0]!);
    await confirmPopover(user);
    await waitFor(() => expect(rowCodes()).toEqual(['xb', 'lb', 'zc', 'rq']));
    await addField(user, 'xm', '姓名', (u) => pickOption(u, 'field-type', '数字（number）'));
    await findFieldError('字段编码 xm 已保存为「单行文本（text）」，类型不能修改；请换一个编码');
  });

  it('previews the fields being edited: a new required field reads {name}必填 on 校验; 详情 is read-only', async () => {
    const user = userEvent.setup();
    setup();
    renderConfig(PATH);
    await loaded();
    await addField(user, 'lxr', '联系人', (u) => pickOption(u, 'field-required', '是（1）'));
    const preview = screen.getByTestId('form-preview');
    const col = await within(preview).findByTestId('form-col-lxr');
    expect(col.querySelector('.ant-form-item-required')).toBeTruthy();
    await user.click(screen.getByTestId('preview-check'));
    await waitFor(() => expect(col.textContent).toContain('联系人必填'));
    expect(within(preview).getByTestId('form-col-xm').textContent).toContain('姓名必填');
    expect(screen.getByTestId('preview-result').textContent).toContain('校验未通过');
    // fill what is required, check again
    await fill(user, within(col).getByRole('textbox'), '王工');
    await fill(user, within(within(preview).getByTestId('form-col-xm')).getByRole('textbox'), '张三');
    await user.click(within(within(preview).getByTestId('form-col-xb')).getByText('男'));
    await user.click(screen.getByTestId('preview-check'));
    await waitFor(() => expect(screen.getByTestId('preview-result').textContent).toContain('校验通过'));
    // 详情: the same values, read-only
    await user.click(within(screen.getByTestId('preview-mode')).getByText('详情'));
    await waitFor(() => expect(within(preview).getByTestId('form-col-lxr').textContent).toContain('王工'));
    expect(within(preview).queryAllByRole('textbox')).toHaveLength(0);
    expect(screen.queryByTestId('preview-check')).toBeNull();
  });

  it('offers the validators that fit a field’s type, saves the one chosen, and the preview shows its message', async () => {
    const user = userEvent.setup();
    const { server } = setup();
    renderConfig(PATH);
    await loaded();
    const offered = async () => {
      await user.click(within(screen.getByTestId('field-validator')).getByRole('combobox'));
      return waitFor(() => {
        const list = [...document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')].at(-1);
        const items = [...(list?.querySelectorAll('.ant-select-item-option') ?? [])].map((e) => e.textContent);
        if (!items.length) throw new Error('no validator options');
        return items;
      });
    };
    // a text field: the identifiers
    await user.click(screen.getByTestId('field-add'));
    await fill(user, await screen.findByTestId('field-code'), 'sfzh');
    await fill(user, screen.getByTestId('field-name'), '身份证号');
    expect(await offered()).toEqual([
      '身份证号码（GB 11643，含校验位与出生日期）',
      '统一社会信用代码（GB 32100，含校验位）',
      '手机号码（以1开头的11位数字）',
    ]);
    await pickOption(user, 'field-validator', '身份证号码（GB 11643，含校验位与出生日期）');
    await user.click(screen.getByTestId('field-ok'));
    await waitFor(() => expect(screen.getByTestId('row-validator-sfzh').textContent).toContain('身份证号码'));
    // the preview runs it: a wrong check digit is refused with the field's name
    const preview = screen.getByTestId('form-preview');
    const col = await within(preview).findByTestId('form-col-sfzh');
    await fill(user, within(col).getByRole('textbox'), '140105199001011234');
    await user.click(screen.getByTestId('preview-check'));
    await waitFor(() => expect(col.textContent).toContain('「身份证号」不是有效的身份证号码（校验位不符）'));
    // a date field: not before / not after today
    await user.click(screen.getAllByTestId('field-edit')[4]!);
    await waitFor(() => expect(screen.getByTestId('field-code')).toHaveProperty('value', 'rq'));
    expect(await offered()).toEqual([
      '不早于今天（日期时间：不早于当前时间）',
      '不晚于今天（日期时间：不晚于当前时间）',
    ]);
    await pickOption(user, 'field-validator', '不晚于今天（日期时间：不晚于当前时间）');
    await user.click(screen.getByTestId('field-ok'));
    await user.click(screen.getByTestId('fields-save'));
    await waitFor(() => expect(saves(server)).toHaveLength(1));
    const sent = bodyOf<{ fields: FieldDef[] }>(saves(server)[0]!).fields;
    expect(sent.find((x) => x.code === 'sfzh')).toMatchObject({ type: 'text', validator: 'idCard' });
    expect(sent.find((x) => x.code === 'rq')).toMatchObject({ type: 'date', validator: 'notFuture' });
  });

  it('switches the simulated width: one, two, or the fields’ own columns', async () => {
    const user = userEvent.setup();
    setup();
    renderConfig(PATH);
    await loaded();
    const col = () => within(screen.getByTestId('form-preview')).getByTestId('form-col-xm');
    expect(col().className).toContain('ant-col-8');
    expect(screen.getByTestId('preview-frame').getAttribute('data-width')).toBe('1920');
    await user.click(within(screen.getByTestId('preview-width')).getByText('1536px'));
    await waitFor(() => expect(col().className).toContain('ant-col-12'));
    await user.click(within(screen.getByTestId('preview-width')).getByText('1280px'));
    await waitFor(() => expect(col().className).toContain('ant-col-24'));
    expect(screen.getByTestId('preview-frame-note').textContent).toContain('模拟窗口宽度 1280px，表单区域 984px');
  });

  it('edits the filter flags: the filter card preview follows, and the flags are saved', async () => {
    const user = userEvent.setup();
    const { server } = setup();
    renderConfig(PATH);
    await loaded();
    expect(filterGroups()).toEqual(['xb', 'lb', 'zc']);
    const flags = () => screen.getAllByTestId('field-filter-flag') as HTMLElement[];
    // the flags of xb, lb, zc (text and date fields have none)
    expect(flags()).toHaveLength(3);
    await user.click(flags()[1]!);
    await waitFor(() => expect(filterGroups()).toEqual(['xb', 'zc']));
    expect((within(screen.getByTestId('filter-mode')).getByLabelText('自定义') as HTMLInputElement).checked).toBe(true);
    // a filter chip of the preview works like the list's
    await user.click(screen.getByTestId('filter-chip-xb-男'));
    expect(screen.getByTestId('search-tag-xb-男')).toBeTruthy();
    await user.click(screen.getByTestId('fields-save'));
    await waitFor(() => expect(saves(server)).toHaveLength(1));
    const sent = bodyOf<{ fields: FieldDef[] }>(saves(server)[0]!).fields;
    expect(sent.map((f) => [f.code, f.filter])).toEqual([
      ['xm', undefined],
      ['xb', true],
      ['lb', false],
      ['zc', true],
      ['rq', undefined],
    ]);
    // back to the default: no flags, every single-value option field again
    await user.click(within(screen.getByTestId('filter-mode')).getByLabelText('默认（显示的单选类字段）'));
    await waitFor(() => expect(filterGroups()).toEqual(['xb', 'lb', 'zc']));
    // none flagged: no filter card at all
    for (const i of [0, 1, 2]) await user.click(flags()[i]!);
    expect(await screen.findByTestId('filter-preview-empty')).toBeTruthy();
  });

  it('declares a field unique (or unique within the enterprise), saves the keys and shows the server’s refusal', async () => {
    const user = userEvent.setup();
    let refusal: string | null = null;
    const { server, node } = setup({
      [`PUT ${SAVE_URL}`]: (req: TransportRequest) => {
        if (refusal) {
          return {
            status: 400,
            code: 400,
            message: refusal,
            data: { fieldErrors: { 'uniqueKeys.2.fields': [refusal] } },
          };
        }
        const b = bodyOf<{ fields: FieldDef[]; uniqueKeys: unknown[] }>(req);
        Object.assign(node, { fields: b.fields, uniqueKeys: b.uniqueKeys, version: node.version + 1 });
        return { data: structuredClone(node), message: '保存成功' };
      },
    });
    Object.assign(node, { uniqueKeys: [{ fields: ['xb', 'lb'], withinEnterprise: false }] });
    renderConfig(PATH);
    await loaded();
    // every single-value field has the control; a key of several fields is shown, not edited
    expect(screen.getAllByTestId(/^field-unique-/).map((e) => e.dataset.testid)).toEqual([
      'field-unique-xm',
      'field-unique-xb',
      'field-unique-lb',
      'field-unique-zc',
      'field-unique-rq',
    ]);
    expect(screen.getAllByText('组合唯一')).toHaveLength(2);
    expect(screen.queryByTestId('fields-dirty')).toBeNull();
    await pickOption(user, 'field-unique-xm', '本企业内唯一');
    expect(await screen.findByTestId('fields-dirty')).toBeTruthy();
    await user.click(screen.getByTestId('fields-save'));
    await waitFor(() => expect(saves(server)).toHaveLength(1));
    expect(bodyOf<{ uniqueKeys: unknown }>(saves(server)[0]!).uniqueKeys).toEqual([
      { fields: ['xb', 'lb'], withinEnterprise: false },
      { fields: ['xm'], withinEnterprise: true },
    ]);
    await waitFor(() => expect(screen.queryByTestId('fields-dirty')).toBeNull());
    // the server refuses a key the records break: its message is shown, once
    refusal = '已有记录的「发证日期」重复（2024-01-01：2 条），不能设为唯一，请先处理这些记录';
    await pickOption(user, 'field-unique-rq', '唯一');
    await user.click(screen.getByTestId('fields-save'));
    await waitFor(() => expect(screen.getByTestId('fields-error').textContent).toContain('已有记录的「发证日期」重复'));
    expect(screen.getByTestId('fields-error').textContent?.match(/已有记录/g)).toHaveLength(1);
  });

  it('edits a field’s inline options, which become a filter group’s chips', async () => {
    const user = userEvent.setup();
    const { server } = setup();
    renderConfig(PATH);
    await loaded();
    await addField(user, 'dj', '等级', async (u) => {
      await pickOption(u, 'field-type', '单选框组（radio）');
      await u.click(await screen.findByTestId('option-add'));
      await u.click(screen.getByTestId('option-add'));
      const labels = screen.getAllByTestId('option-label');
      await fill(u, labels[0]!, '一级');
      await fill(u, screen.getAllByTestId('option-value')[0]!, '1');
      await fill(u, labels[1]!, '二级');
      // by default every shown single-value option field is a filter group: so is the new one
      expect(screen.getByTestId('field-filter').getAttribute('aria-checked')).toBe('true');
    });
    await waitFor(() => expect(filterGroups()).toEqual(['xb', 'lb', 'zc', 'dj']));
    expect(screen.getByTestId('filter-chip-dj-1').textContent).toBe('一级');
    // an empty value takes the text
    expect(screen.getByTestId('filter-chip-dj-二级').textContent).toBe('二级');
    // and the form preview offers them
    expect(within(screen.getByTestId('form-col-dj')).getByText('一级')).toBeTruthy();
    await user.click(screen.getByTestId('fields-save'));
    await waitFor(() => expect(saves(server)).toHaveLength(1));
    const sent = bodyOf<{ fields: FieldDef[] }>(saves(server)[0]!).fields;
    expect(sent.find((f) => f.code === 'dj')).toEqual({
      code: 'dj',
      name: '等级',
      type: 'radio',
      required: 0,
      show: true,
      options: {
        list: [
          { label: '一级', value: '1' },
          { label: '二级', value: '二级' },
        ],
      },
    });
  });

  it('takes a field’s options from a dictionary or from another node’s fields', async () => {
    const user = userEvent.setup();
    const { server } = setup({
      [`POST ${FIELDS_URL}`]: (req) =>
        bodyOf(req).gnCoding === 'A2'
          ? { data: { fields: [{ code: 'qymc', name: '企业名称', type: 'text' }], version: 1 } }
          : { data: { fields: sampleFields(), version: 3 } },
    });
    renderConfig(PATH);
    await loaded();
    // 类别 from a dictionary
    await user.click(screen.getAllByTestId('field-edit')[2]!);
    await user.click(within(await screen.findByTestId('field-source')).getByText('字典'));
    await pickOption(user, 'field-dic', /^EDUCATION（5 项：中专及以下、大专、本科…）$/);
    await user.click(screen.getByTestId('field-ok'));
    await waitFor(() =>
      expect(screen.getByTestId('filter-notes').textContent).toContain('类别（lb）：选项来自字典 EDUCATION'),
    );
    // the preview cannot ask the server for a source that is not saved yet
    expect(screen.getByTestId('preview-pending').textContent).toContain('类别');
    // 职称 from another node's records
    await user.click(screen.getAllByTestId('field-edit')[3]!);
    await user.click(within(await screen.findByTestId('field-source')).getByText('其他节点 / 数据源'));
    await pickOption(user, 'source-node-node', '信用子项2（A2）');
    await pickOption(user, 'source-label-field', '企业名称（qymc）');
    await pickLastOption(user, 'source-value-field', '企业名称（qymc）');
    await user.click(screen.getByTestId('field-ok'));
    await waitFor(() => expect(screen.queryByTestId('field-form')).toBeNull());
    await user.click(screen.getByTestId('fields-save'));
    await waitFor(() => expect(saves(server)).toHaveLength(1));
    const sent = bodyOf<{ fields: FieldDef[] }>(saves(server)[0]!).fields;
    expect(sent.find((f) => f.code === 'lb')).toEqual({
      code: 'lb',
      name: '类别',
      type: 'select',
      required: 0,
      show: true,
      titleCoding: 'EDUCATION',
      options: { list: [], type: 'dic' },
    });
    const zc = sent.find((f) => f.code === 'zc');
    expect(zc?.options).toEqual({
      list: [],
      type: 'pull-down',
      source: { gnCoding: 'A2', labelField: 'qymc', valueField: 'qymc' },
    });
    expect(zc?.titleCoding).toBeUndefined();
  }, 40_000);

  it('reorders by keyboard on the row handle and by dragging a row', async () => {
    const user = userEvent.setup();
    const { server } = setup();
    renderConfig(PATH);
    await loaded();
    const handle = screen.getAllByTestId('field-handle')[0]!;
    handle.focus();
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(rowCodes()).toEqual(['xb', 'xm', 'lb', 'zc', 'rq']));
    // the focus stays on the moved row's handle: another press moves it on
    expect(document.activeElement?.getAttribute('data-row-handle')).toBe(
      screen.getAllByTestId('field-handle')[1]!.getAttribute('data-row-handle'),
    );
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(rowCodes()).toEqual(['xb', 'lb', 'xm', 'zc', 'rq']));
    // drag 发证日期 onto the first row
    const rows = screen.getAllByTestId('field-row');
    const data = { effectAllowed: '', setData: () => undefined, getData: () => '' };
    fireEvent.dragStart(rows[4]!, { dataTransfer: data });
    fireEvent.dragOver(rows[0]!, { dataTransfer: data });
    fireEvent.drop(rows[0]!, { dataTransfer: data });
    await waitFor(() => expect(rowCodes()).toEqual(['rq', 'xb', 'lb', 'xm', 'zc']));
    await user.click(screen.getByTestId('fields-save'));
    await waitFor(() => expect(saves(server)).toHaveLength(1));
    expect(bodyOf<{ fields: FieldDef[] }>(saves(server)[0]!).fields.map((f) => f.code)).toEqual([
      'rq',
      'xb',
      'lb',
      'xm',
      'zc',
    ]);
  });

  it('asks before leaving with unsaved changes', async () => {
    const user = userEvent.setup();
    setup();
    const { router } = renderConfig(PATH);
    await loaded();
    await user.click(screen.getAllByTestId('field-down')[0]!);
    await user.click(await within(screen.getByTestId('node-target-bar')).findByText('列表列设置'));
    const dialog = await findConfirm(UNSAVED_FIELDS);
    await user.click(confirmButton(dialog, '留下'));
    await waitFor(() => expect(visibleConfirm()).toBeNull());
    expect(router.state.location.pathname).toBe('/system/setUpForm');
    expect(rowCodes()).toEqual(['xb', 'xm', 'lb', 'zc', 'rq']);
    // choosing another node asks too
    act(() => void router.navigate('/system/setUpForm?gnCoding=A2'));
    await user.click(confirmButton(await findConfirm(UNSAVED_FIELDS), '留下'));
    await waitFor(() => expect(visibleConfirm()).toBeNull());
    expect(router.state.location.search).toBe('?gnCoding=A1');
    await user.click(await within(screen.getByTestId('node-target-bar')).findByText('列表列设置'));
    const again = await findConfirm(UNSAVED_FIELDS);
    await user.click(confirmButton(again, '离开'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/system/setUpList'));
    expect(router.state.location.search).toBe('?systemCoding=XYGL&gnCoding=A1');
  });

  it('is reachable from the node’s other pages, keeping the node', async () => {
    setup();
    renderConfig('/system/setUpList?gnCoding=A1');
    const bar = await screen.findByTestId('node-target-bar');
    const link = await within(bar).findByText('字段设置');
    expect(link.getAttribute('href')).toBe('/system/setUpForm?systemCoding=XYGL&gnCoding=A1');
  });

  it('is read-only for a node whose records come from a module', async () => {
    const server = setup().server;
    const tree = server.state.trees.XYGL;
    tree[0]!.children[0]!.dataSource = 'credit';
    renderConfig(PATH);
    await loaded();
    expect(screen.getByTestId('fields-readonly')).toBeTruthy();
    expect((screen.getByTestId('field-add') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getAllByTestId('field-edit')[0] as HTMLButtonElement).disabled).toBe(true);
  });
});
