import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { fileLinks } from './ReadOnlyValue';
import { f, renderForm, setupServer } from './test-utils';

const LIST = {
  list: [
    { mc: '施工', dm: 'A' },
    { mc: '监理', dm: 'B' },
  ],
  labelKey: 'mc',
  valueKey: 'dm',
};
const TREE = {
  list: [
    {
      label: '山西省',
      value: 'sx',
      children: [
        { label: '太原市', value: 'ty' },
        { label: '大同市', value: 'dt' },
      ],
    },
  ],
};
const text = (code: string) => screen.getByTestId(`value-${code}`).textContent;

afterEach(() => {
  configureRequest();
});

describe('DynamicForm readOnly (detail view)', () => {
  it('shows every value as text: options as labels, ; between values, / along paths, switches 是/否, files as links', async () => {
    const server = setupServer({
      'POST /ks/common/pull-down': () => ({
        data: { list: [{ n: '甲建设公司', v: '911' }], labelKey: 'n', valueKey: 'v' },
      }),
    });
    const fields = [
      f('xm', 'text', { name: '姓名', required: 1 }),
      f('lx', 'select', { name: '类型', options: LIST }),
      f('fw', 'checkbox', { name: '范围', options: LIST }),
      f('dq', 'cascader', { name: '地区', options: TREE }),
      f('dqs', 'cascaders', { name: '多地区', options: TREE }),
      f('kg', 'switch', { name: '开关' }),
      f('gd', 'switch-2', { name: '固定' }),
      f('xb', 'sex', { name: '性别' }),
      f('sf', 'y_n_ent', { name: '是否' }),
      f('qj', 'daterange', { name: '有效期' }),
      f('fj', 'text', { name: '附件' }),
      f('fjs', 'text', { name: '附件列表' }),
      f('nr', 'editor', { name: '内容' }),
      f('qy', 'select', { name: '企业', options: { list: [], type: 'pull-down' } }),
      f('bz', 'textarea', { name: '备注' }),
      f('sl', 'number', { name: '数量' }),
    ];
    renderForm({
      fields,
      readOnly: true,
      initialValues: {
        xm: '张三',
        lx: 'B',
        fw: 'A;B',
        dq: 'sx/ty',
        dqs: 'sx/ty;sx/dt',
        kg: '1',
        xb: '女',
        sf: '0',
        qj: '2024-01-01,2024-01-31',
        fj: '/files/2024/承诺书.pdf',
        fjs: [
          { fileName: '营业执照.jpg', url: '/files/a.jpg' },
          { fileName: '恶意链接', url: 'javascript:alert(1)' },
        ],
        nr: '<p>正文<script>alert(1)</script><img src="x" onerror="alert(1)"></p>',
        qy: '911',
      },
    });
    expect(text('xm')).toBe('张三');
    expect(text('lx')).toBe('监理');
    expect(text('fw')).toBe('施工;监理');
    expect(text('dq')).toBe('山西省/太原市');
    expect(text('dqs')).toBe('山西省/太原市;山西省/大同市');
    expect(text('kg')).toBe('是');
    expect(text('gd')).toBe('是');
    expect(text('xb')).toBe('女');
    expect(text('sf')).toBe('否');
    expect(text('qj')).toBe('2024-01-01 至 2024-01-31');
    const link = screen.getByText('承诺书.pdf') as HTMLAnchorElement;
    expect(link.getAttribute('href')).toBe('/files/2024/承诺书.pdf');
    expect(link.rel).toContain('noopener');
    // a list with an unsafe address is not turned into links
    expect(screen.queryByRole('link', { name: '营业执照.jpg' })).toBeNull();
    expect(text('fjs')).toBe('营业执照.jpg;恶意链接');
    const html = screen.getByTestId('value-nr').innerHTML;
    expect(html).toContain('正文');
    expect(html).not.toContain('script');
    expect(html).not.toContain('onerror');
    await waitFor(() => expect(text('qy')).toBe('甲建设公司'));
    expect(server.callsTo('/ks/common/pull-down')).toHaveLength(1);
    expect(text('bz')).toBe('-');
    expect(text('sl')).toBe('-');
    // no inputs, no required marks in the detail view
    const form = screen.getByTestId('dynamic-form');
    expect(form.querySelector('input, textarea')).toBeNull();
    expect(form.querySelector('.ant-form-item-required')).toBeNull();
  });

  it('fileLinks: objects with a url or file addresses; anything else is not a file', () => {
    expect(fileLinks([{ name: '图.png', url: '/f/1.png' }])).toEqual([{ name: '图.png', url: '/f/1.png' }]);
    expect(fileLinks('https://x.cn/a.pdf,https://x.cn/b.docx')).toEqual([
      { name: 'a.pdf', url: 'https://x.cn/a.pdf' },
      { name: 'b.docx', url: 'https://x.cn/b.docx' },
    ]);
    expect(fileLinks('普通文字')).toBeNull();
    expect(fileLinks('/not-a-file')).toBeNull();
    expect(fileLinks('javascript:alert(1).pdf')).toBeNull();
  });
});
