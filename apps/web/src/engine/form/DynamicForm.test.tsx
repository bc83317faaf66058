import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { col, errorOf, f, findError, inputOf, pick, queryCol, renderForm, setWindowWidth } from './test-utils';

const OPTIONS = {
  list: [
    { dm: 'A', mc: '施工' },
    { dm: 'B', mc: '监理' },
  ],
  labelKey: 'mc',
  valueKey: 'dm',
};

afterEach(() => {
  vi.useRealTimers();
});

describe('DynamicForm: required fields (§5)', () => {
  it('validate() shows {name}必填 on every empty required field (an empty array too), scrolls to the first, resolves null', async () => {
    const scroll = vi.fn();
    Element.prototype.scrollIntoView = scroll;
    try {
      const fields = [
        f('bz', 'text', { name: '备注' }),
        f('xm', 'text', { name: '姓名', required: 1 }),
        f('lx', 'select', { name: '类型', required: 2, options: OPTIONS }),
        f('fw', 'checkbox', { name: '范围', required: 1, options: OPTIONS }),
        f('sl', 'number', { name: '数量', required: 1 }),
      ];
      const { handle } = renderForm({ fields, initialValues: { fw: [] } });
      expect(errorOf('xm')).toBeNull();
      let result: unknown = 'pending';
      await act(async () => {
        result = await handle().validate();
      });
      expect(result).toBeNull();
      expect(errorOf('bz')).toBeNull();
      expect(errorOf('xm')).toBe('姓名必填');
      expect(errorOf('lx')).toBe('类型必填');
      expect(errorOf('fw')).toBe('范围必填');
      expect(errorOf('sl')).toBe('数量必填');
      expect(scroll).toHaveBeenCalledTimes(1);
      expect(scroll.mock.contexts[0]).toBe(col('xm'));
      expect(document.activeElement).toBe(inputOf('xm'));
      // required fields carry the asterisk, optional ones do not
      expect(col('xm').querySelector('.ant-form-item-required')).not.toBeNull();
      expect(col('bz').querySelector('.ant-form-item-required')).toBeNull();
    } finally {
      delete (Element.prototype as Partial<Element>).scrollIntoView;
    }
  });

  it('validate() resolves the normalised values: trimmed text, switches 1/0, switch-2 1, hidden children null', async () => {
    const fields = [
      f('xm', 'text', { name: '姓名', required: 1 }),
      f('sw', 'switch', { name: '开关' }),
      f('gd', 'switch-2', { name: '固定' }),
      f('dl', 'switch-1', { name: '是否代理', childNode: 'dlr' }),
      f('dlr', 'text', { name: '代理人', parentNode: 'dl' }),
    ];
    const { handle } = renderForm({ fields, initialValues: { xm: '  张三 ', dl: '0', dlr: '李四' } });
    let result: unknown;
    await act(async () => {
      result = await handle().validate();
    });
    expect(result).toEqual({ xm: '张三', sw: '0', gd: '1', dl: '0', dlr: null });
    expect(handle().getValues()).toMatchObject({ xm: '  张三 ', gd: '1', dlr: '李四' });
  });
});

describe('DynamicForm: rich text', () => {
  it('an editor field loads its editor; empty and required it reads {name}必填, its HTML is kept', async () => {
    const fields = [f('nr', 'editor', { name: '内容', required: 1 }), f('sm', 'editor', { name: '说明' })];
    const { handle } = renderForm({ fields, initialValues: { sm: '<p>说明文字</p>' } });
    await waitFor(() => expect(col('sm').textContent).toContain('说明文字'), { timeout: 10_000 });
    let result: unknown = 'pending';
    await act(async () => {
      result = await handle().validate();
    });
    expect(result).toBeNull();
    expect(errorOf('nr')).toBe('内容必填');
    expect(handle().getValues().sm).toBe('<p>说明文字</p>');
  });
});

describe('DynamicForm: switch-1 / switch-2 (§4)', () => {
  const fields = [
    f('dl', 'switch-1', { name: '是否代理', childNode: 'dlr' }),
    f('dlr', 'text', { name: '代理人', parentNode: 'dl' }),
    f('dldh', 'text', { name: '代理人电话', parentNode: 'dl', required: 1 }),
    f('gd', 'switch-2', { name: '固定开启' }),
  ];

  it('shows the children while the switch is on and makes them required (请选择{name} on blur, {name}必填 when already required)', async () => {
    const { handle } = renderForm({ fields });
    expect(queryCol('dlr')).toBeNull();
    expect(queryCol('dldh')).toBeNull();
    const sw = col('dl').querySelector('button.ant-switch') as HTMLElement;
    expect(sw.getAttribute('aria-checked')).toBe('false');
    act(() => {
      fireEvent.click(sw);
    });
    expect(handle().getValues().dl).toBe('1');
    expect(col('dlr').querySelector('.ant-form-item-required')).not.toBeNull();
    // newly required: the message appears on blur, before any submit
    act(() => {
      fireEvent.focus(inputOf('dlr'));
      fireEvent.blur(inputOf('dlr'));
    });
    await findError('dlr', '请选择代理人');
    fireEvent.change(inputOf('dlr'), { target: { value: '李四' } });
    expect(errorOf('dlr')).toBeNull();
    fireEvent.change(inputOf('dlr'), { target: { value: '' } });
    expect(errorOf('dlr')).toBe('请选择代理人');
    let result: unknown;
    await act(async () => {
      result = await handle().validate();
    });
    expect(result).toBeNull();
    expect(errorOf('dldh')).toBe('代理人电话必填');
    // off again: children hidden, neither validated nor kept
    act(() => {
      fireEvent.click(col('dl').querySelector('button.ant-switch') as HTMLElement);
    });
    expect(queryCol('dlr')).toBeNull();
    await act(async () => {
      result = await handle().validate();
    });
    expect(result).toEqual({ dl: '0', dlr: null, dldh: null, gd: '1' });
  });

  it('switch-2 is fixed on and cannot be changed', () => {
    const { handle } = renderForm({ fields, initialValues: { gd: '0' } });
    const sw = col('gd').querySelector('button.ant-switch') as HTMLButtonElement;
    expect(sw.getAttribute('aria-checked')).toBe('true');
    expect(sw.disabled).toBe(true);
    expect(handle().getValues().gd).toBe('1');
  });
});

describe('DynamicForm: text rules (§5)', () => {
  it('shows the regex prompt while typing, clears a failing value on blur and keeps the prompt', async () => {
    const fields = [f('sfzh', 'text', { name: '身份证号', regex: '^\\d{17}[\\dXx]$', prompt: '请输入18位身份证号' })];
    const onValuesChange = vi.fn();
    const { handle } = renderForm({ fields, onValuesChange });
    fireEvent.change(inputOf('sfzh'), { target: { value: '1401' } });
    expect(errorOf('sfzh')).toBe('请输入18位身份证号');
    fireEvent.change(inputOf('sfzh'), { target: { value: '14010519880101123X' } });
    expect(errorOf('sfzh')).toBeNull();
    fireEvent.change(inputOf('sfzh'), { target: { value: '14010519880101123' } });
    expect(errorOf('sfzh')).toBe('请输入18位身份证号');
    act(() => {
      fireEvent.blur(inputOf('sfzh'));
    });
    expect(inputOf('sfzh').value).toBe('');
    expect(handle().getValues().sfzh).toBeNull();
    expect(errorOf('sfzh')).toBe('请输入18位身份证号');
    expect(onValuesChange).toHaveBeenLastCalledWith({ sfzh: null });
  });

  it('a regex without a prompt says {name}格式不正确', () => {
    renderForm({ fields: [f('dh', 'text', { name: '电话', regex: '/^1\\d{10}$/' })] });
    fireEvent.change(inputOf('dh'), { target: { value: 'abc' } });
    expect(errorOf('dh')).toBe('电话格式不正确');
  });

  it('limits text to the field length and validates it on submit', async () => {
    const fields = [f('mc', 'text', { name: '名称', length: 5 }), f('sm', 'textarea', { name: '说明', length: 3 })];
    const { handle } = renderForm({ fields, initialValues: { mc: '超过五个字的名称', sm: 'abcd' } });
    expect(inputOf('mc').maxLength).toBe(5);
    expect((col('sm').querySelector('textarea') as HTMLTextAreaElement).maxLength).toBe(3);
    await act(async () => {
      await handle().validate();
    });
    expect(errorOf('mc')).toBe('名称不能超过5个字符');
    expect(errorOf('sm')).toBe('说明不能超过3个字符');
  });

  it('number inputs: min 1, step 1, precision 0; 0 is refused on submit', async () => {
    const fields = [f('sl', 'number', { name: '数量' }), f('js', 'input-number', { name: '件数' })];
    const { handle } = renderForm({ fields, initialValues: { sl: 0 } });
    const input = inputOf('js');
    expect(input.getAttribute('aria-valuemin')).toBe('1');
    expect(input.getAttribute('step')).toBe('1');
    // input-number has +/- buttons, number has none
    expect(col('js').querySelector('.ant-input-number-action, .ant-input-number-handler')).not.toBeNull();
    expect(col('sl').querySelector('.ant-input-number-action, .ant-input-number-handler')).toBeNull();
    fireEvent.change(input, { target: { value: '2.6' } });
    act(() => {
      fireEvent.blur(input);
    });
    await waitFor(() => expect(handle().getValues().js).toBe(3));
    await act(async () => {
      await handle().validate();
    });
    expect(errorOf('sl')).toBe('数量须为不小于1的整数');
  });
});

describe('DynamicForm: dependent fields (§5)', () => {
  it('changing a parent clears its dependants, and theirs', async () => {
    const fields = [
      f('lx', 'select', { name: '类型', options: OPTIONS, childNode: 'zl' }),
      f('zl', 'select', { name: '子类', options: OPTIONS }),
      f('xz', 'text', { name: '细则', parentNode: 'zl' }),
      f('qt', 'text', { name: '其他' }),
    ];
    const { handle } = renderForm({ fields, initialValues: { lx: 'A', zl: 'B', xz: '细则内容', qt: '保留' } });
    await pick('lx', '监理');
    expect(handle().getValues()).toEqual({ lx: 'B', zl: null, xz: null, qt: '保留' });
  });

  it('select-link fills the fields named in the chosen option curInfo', async () => {
    const fields = [
      f('qy', 'select-link', {
        name: '企业',
        options: {
          list: [
            { label: '甲公司', value: 'q1', curInfo: { xydm: '91140100A', dz: '太原', unknown: 'x' } },
            { label: '乙公司', value: 'q2', curInfo: { xydm: '91140100B' } },
          ],
        },
      }),
      f('xydm', 'text', { name: '信用代码' }),
      f('dz', 'text', { name: '地址' }),
    ];
    const { handle } = renderForm({ fields });
    await pick('qy', '甲公司');
    expect(handle().getValues()).toMatchObject({ qy: 'q1', xydm: '91140100A', dz: '太原' });
    expect(handle().getValues()).not.toHaveProperty('unknown');
    await pick('qy', '乙公司');
    expect(handle().getValues()).toMatchObject({ qy: 'q2', xydm: '91140100B', dz: null });
  });
});

describe('DynamicForm: columns (§9)', () => {
  const fields = [f('a', 'text', { col: 6 }), f('b', 'text'), f('c', 'editor')];
  const span = (code: string) => /ant-col-(\d+)/.exec(col(code).className)?.[1];

  it('24 at ≤ 1280 px, 12 up to 1536 px, the field col above; fixedDetail shifts the thresholds', async () => {
    const restore = setWindowWidth(1280);
    try {
      const { rerenderForm } = renderForm({ fields: fields.slice(0, 2) });
      expect([span('a'), span('b')]).toEqual(['24', '24']);
      setWindowWidth(1281);
      expect([span('a'), span('b')]).toEqual(['12', '12']);
      setWindowWidth(1536);
      expect(span('a')).toBe('12');
      setWindowWidth(1537);
      expect([span('a'), span('b')]).toEqual(['6', '8']);
      rerenderForm({ fields: fields.slice(0, 2), fixedDetail: true });
      expect(span('a')).toBe('12');
      setWindowWidth(1536);
      expect(span('a')).toBe('24');
      setWindowWidth(1921);
      expect(span('a')).toBe('6');
    } finally {
      restore();
    }
  });
});

describe('DynamicForm: values in and out', () => {
  it('takes arrays, ISO times and numbers as text and keeps the stored form (; and /)', () => {
    const fields = [
      f('dx', 'select-m', { options: OPTIONS }),
      f('dq', 'cascader'),
      f('dqs', 'cascaders'),
      f('rq', 'date'),
      f('qj', 'daterange'),
      f('sl', 'number'),
    ];
    const { handle } = renderForm({
      fields,
      initialValues: {
        dx: ['A', 'B'],
        dq: ['sx', 'ty'],
        dqs: [
          ['sx', 'ty'],
          ['sx', 'dt'],
        ],
        rq: new Date(2024, 2, 5),
        qj: ['2024-01-01', '2024-01-31'],
        sl: '12',
      },
    });
    expect(handle().getValues()).toEqual({
      dx: 'A;B',
      dq: 'sx/ty',
      dqs: 'sx/ty;sx/dt',
      rq: '2024-03-05',
      qj: '2024-01-01,2024-01-31',
      sl: 12,
    });
  });

  it('reset() goes back to the initial values (or the given ones) and clears the messages; new initial values load until edited', async () => {
    const fields = [f('xm', 'text', { name: '姓名', required: 1 })];
    const { handle, rerenderForm } = renderForm({ fields, initialValues: { xm: '张三' } });
    fireEvent.change(inputOf('xm'), { target: { value: '' } });
    await act(async () => {
      await handle().validate();
    });
    expect(errorOf('xm')).toBe('姓名必填');
    act(() => handle().reset());
    expect(inputOf('xm').value).toBe('张三');
    expect(errorOf('xm')).toBeNull();
    act(() => handle().reset({ xm: '李四' }));
    expect(handle().getValues()).toEqual({ xm: '李四' });
    rerenderForm({ fields, initialValues: { xm: '王五' } });
    expect(inputOf('xm').value).toBe('王五');
    fireEvent.change(inputOf('xm'), { target: { value: '赵六' } });
    rerenderForm({ fields, initialValues: { xm: '孙七' } });
    expect(inputOf('xm').value).toBe('赵六');
  });

  it('a read-only field is disabled; read-text shows its value as text', () => {
    const fields = [
      f('bh', 'text', { name: '编号', readonly: true }),
      f('zt', 'read-text', { name: '状态', required: 1 }),
    ];
    renderForm({ fields, initialValues: { bh: 'NO-1', zt: '草稿' } });
    expect(inputOf('bh').disabled).toBe(true);
    expect(screen.getByTestId('value-zt').textContent).toBe('草稿');
    expect(col('zt').querySelector('.ant-form-item-required')).toBeNull();
  });
});
