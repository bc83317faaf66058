import { FIELD_TYPES, type FieldDef } from '@ks/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { col, dropdownOptions, f, inputOf, openPopup, openSelect, pick, pickPath, renderForm } from './test-utils';

const LIST = {
  list: [
    { label: '施工', value: 'A' },
    { label: '监理', value: 'B' },
    { label: '造价', value: 'C', isDisabled: true },
  ],
};
const TREE = {
  list: [
    {
      label: '山西省',
      value: 'sx',
      children: [
        {
          label: '太原市',
          value: 'ty',
          children: [
            { label: '小店区', value: 'xd' },
            { label: '迎泽区', value: 'yz' },
          ],
        },
        { label: '大同市', value: 'dt', children: [{ label: '平城区', value: 'pc' }] },
      ],
    },
  ],
};

/** The widget each type renders, by a selector inside its column. */
const WIDGET: Record<FieldDef['type'], string> = {
  'read-text': '[data-testid="value-read-text"]',
  select: '.ant-select',
  'filter-select': '.ant-select-show-search',
  'select-filter': '.ant-select-show-search',
  'select-link': '.ant-select',
  'select-m': '.ant-select-multiple',
  'select-edit': '.ant-select-auto-complete',
  cascader: '.ant-cascader',
  'cascader-1': '.ant-cascader',
  'cascader-2': '.ant-cascader',
  'cascader-3': '.ant-cascader',
  cascaders: '.ant-cascader.ant-select-multiple',
  'select-multiple': '.ant-select-multiple.ant-select-show-search',
  'multi-select': '.ant-tree-select',
  selects: '.ant-tag-checkable',
  checkbox: '.ant-checkbox-group',
  radio: '.ant-radio-group .ant-radio-wrapper',
  transfer: '.ant-transfer',
  'transfer-1': '.ant-transfer .ant-transfer-list-search, .ant-transfer input[type="search"], .ant-transfer .ant-input',
  switch: 'button.ant-switch',
  'switch-1': 'button.ant-switch',
  'switch-2': 'button.ant-switch[disabled]',
  y_n_ent: '.ant-radio-group .ant-radio-button-wrapper',
  editor: '[data-testid="rich-text-editor"]',
  text: 'input.ant-input',
  textarea: 'textarea.ant-input',
  number: '.ant-input-number',
  'input-number': '.ant-input-number',
  sex: '.ant-radio-group .ant-radio-wrapper',
  datetime: '.ant-picker:not(.ant-picker-range)',
  date: '.ant-picker:not(.ant-picker-range)',
  daterange: '.ant-picker-range',
};

const optionsFor = (type: FieldDef['type']) =>
  type === 'sex' || type === 'y_n_ent'
    ? undefined
    : type.startsWith('cascader') || type === 'multi-select'
      ? TREE
      : LIST;

describe('field widgets (screen 13)', () => {
  it('every field type renders its widget', async () => {
    const fields = FIELD_TYPES.map((type) => f(type, type, { name: type, options: optionsFor(type) }));
    renderForm({ fields, initialValues: { 'read-text': '只读内容' } });
    for (const type of FIELD_TYPES) {
      if (type === 'editor') continue;
      expect(col(type).querySelector(WIDGET[type]), type).not.toBeNull();
    }
    // the editor's chunk loads lazily
    await waitFor(() => expect(col('editor').querySelector(WIDGET.editor)).not.toBeNull(), { timeout: 10_000 });
    expect(Object.keys(WIDGET).sort()).toEqual([...FIELD_TYPES].sort());
    // sex offers 男 / 女, y_n_ent 是 / 否
    expect(
      within(col('sex'))
        .getAllByRole('radio')
        .map((r) => (r as HTMLInputElement).value),
    ).toEqual(['男', '女']);
    expect(col('y_n_ent').textContent).toContain('是');
    expect(col('y_n_ent').textContent).toContain('否');
  });

  it('selects yield the option value; multi selects join with ;', async () => {
    const fields = [
      f('dx', 'select', { options: LIST }),
      f('gl', 'select-filter', { options: LIST }),
      f('gs', 'filter-select', { options: LIST }),
      f('dm', 'select-m', { options: LIST }),
      f('dn', 'select-multiple', { options: LIST }),
    ];
    const { handle } = renderForm({ fields });
    await pick('dx', '监理');
    // select-filter filters by label as you type
    openSelect('gl');
    fireEvent.change(inputOf('gl'), { target: { value: '施' } });
    await waitFor(() => expect(dropdownOptions().map((o) => o.textContent)).toEqual(['施工']));
    act(() => {
      fireEvent.click(dropdownOptions()[0] as HTMLElement);
    });
    await pick('gs', '施工');
    await pick('dm', '施工');
    await pick('dm', '监理');
    await pick('dn', '监理');
    // a disabled option cannot be chosen
    openSelect('dx');
    const disabled = dropdownOptions().find((o) => o.textContent === '造价') as HTMLElement;
    expect(disabled.className).toContain('disabled');
    expect(handle().getValues()).toEqual({ dx: 'B', gl: 'A', gs: 'A', dm: 'A;B', dn: 'B' });
  });

  it('select-edit takes free text or a suggestion; multi-select checks tree nodes', async () => {
    const fields = [f('bj', 'select-edit', { options: LIST }), f('sx', 'multi-select', { options: TREE })];
    const { handle } = renderForm({ fields });
    fireEvent.change(inputOf('bj'), { target: { value: '自填内容' } });
    expect(handle().getValues().bj).toBe('自填内容');
    fireEvent.change(inputOf('bj'), { target: { value: '监' } });
    const suggestion = await waitFor(() => {
      const hit = dropdownOptions().find((o) => o.textContent === '监理');
      if (!hit) throw new Error('suggestion 监理 not shown');
      return hit;
    });
    act(() => {
      fireEvent.click(suggestion);
    });
    expect(handle().getValues().bj).toBe('监理');
    openSelect('sx');
    const node = await waitFor(() => {
      const hit = Array.from(openPopup()?.querySelectorAll<HTMLElement>('.ant-select-tree-treenode') ?? []).find(
        (n) => n.textContent === '山西省',
      );
      if (!hit) throw new Error('tree node 山西省 not shown');
      return hit;
    });
    // checking a parent checks its children: the leaves are kept
    act(() => {
      fireEvent.click(node.querySelector('.ant-select-tree-checkbox') as HTMLElement);
    });
    expect(handle().getValues().sx).toBe('xd;yz;pc');
  });

  it('cascaders join a path with /; cascader-1/2/3 offer the first 1/2/3 levels; cascaders join paths with ;', async () => {
    const fields = [
      f('c0', 'cascader', { options: TREE }),
      f('c1', 'cascader-1', { options: TREE }),
      f('c2', 'cascader-2', { options: TREE }),
      f('cs', 'cascaders', { options: TREE }),
    ];
    const { handle } = renderForm({ fields });
    await pickPath('c0', ['山西省', '太原市', '迎泽区']);
    await pickPath('c1', ['山西省']);
    await pickPath('c2', ['山西省', '大同市']);
    expect(handle().getValues()).toEqual({ c0: 'sx/ty/yz', c1: 'sx', c2: 'sx/dt' });
    // several paths: the popup stays open while items are checked
    await pickPath('cs', ['山西省', '太原市']);
    const item = (label: string) =>
      Array.from(openPopup()?.querySelectorAll<HTMLElement>('.ant-cascader-menu-item') ?? []).find(
        (el) => el.getAttribute('title') === label,
      ) as HTMLElement;
    const check = (label: string) =>
      act(() => {
        fireEvent.click(item(label).querySelector('.ant-cascader-checkbox') as HTMLElement);
      });
    check('小店区');
    act(() => {
      fireEvent.click(item('大同市'));
    });
    check('平城区');
    expect(handle().getValues().cs).toBe('sx/ty/xd;sx/dt/pc');
  });

  it('check boxes, radios, sex, 是/否 and tags yield their values', () => {
    const fields = [
      f('fx', 'checkbox', { options: LIST }),
      f('dx', 'radio', { options: LIST }),
      f('xb', 'sex'),
      f('sf', 'y_n_ent'),
      f('bq', 'selects', { options: LIST }),
    ];
    const { handle } = renderForm({ fields });
    const click = (code: string, text: string) =>
      act(() => {
        fireEvent.click(within(col(code)).getByText(text));
      });
    click('fx', '施工');
    click('fx', '监理');
    click('dx', '监理');
    click('xb', '女');
    click('sf', '否');
    click('bq', '监理');
    click('bq', '施工');
    expect(handle().getValues()).toEqual({ fx: 'A;B', dx: 'B', xb: '女', sf: '0', bq: 'B;A' });
    click('fx', '施工');
    expect(handle().getValues().fx).toBe('B');
  });

  it('transfers move keys to the chosen list, joined with ;', () => {
    const fields = [f('cy', 'transfer', { options: LIST }), f('cz', 'transfer-1', { options: LIST })];
    const { handle } = renderForm({ fields, initialValues: { cz: 'A' } });
    const left = col('cy').querySelectorAll('.ant-transfer-section')[0] as HTMLElement;
    act(() => {
      fireEvent.click(within(left).getByText('监理'));
    });
    const toRight = col('cy').querySelectorAll('.ant-transfer-actions button')[0] as HTMLButtonElement;
    act(() => {
      fireEvent.click(toRight);
    });
    expect(handle().getValues().cy).toBe('B');
    const chosen = col('cz').querySelectorAll('.ant-transfer-section')[1] as HTMLElement;
    expect(within(chosen).getByText('施工')).toBeTruthy();
  });

  it('switches give 1 / 0; text, text area and numbers their input', () => {
    const fields = [
      f('kg', 'switch'),
      f('wb', 'text'),
      f('dw', 'textarea'),
      f('sl', 'number'),
      f('js', 'input-number'),
    ];
    const { handle } = renderForm({ fields });
    const sw = col('kg').querySelector('button.ant-switch') as HTMLElement;
    act(() => {
      fireEvent.click(sw);
    });
    expect(handle().getValues().kg).toBe('1');
    act(() => {
      fireEvent.click(sw);
    });
    expect(handle().getValues().kg).toBe('0');
    fireEvent.change(inputOf('wb'), { target: { value: '文字' } });
    fireEvent.change(col('dw').querySelector('textarea') as HTMLTextAreaElement, {
      target: { value: '第一行\n第二行' },
    });
    fireEvent.change(inputOf('sl'), { target: { value: '12' } });
    fireEvent.change(inputOf('js'), { target: { value: '3' } });
    expect(handle().getValues()).toMatchObject({ wb: '文字', dw: '第一行\n第二行', sl: 12, js: 3 });
    expect(screen.getAllByPlaceholderText('请输入wb')).toHaveLength(1);
  });
});
