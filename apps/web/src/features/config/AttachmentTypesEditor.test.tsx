import type { AttachmentType } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { resetPrompts } from '../../components/prompt';
import { renderRoutes } from '../../test/render';
import { AttachmentTypesEditor } from './AttachmentTypesEditor';
import { bodyOf, confirmPopover, findFieldError, pickOption, queryOf, setupConfigServer } from './testkit';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const TYPE: AttachmentType = {
  annexNo: '01',
  annexName: '营业执照',
  annexFormat: 'pdf,jpg',
  annexSize: 10,
  isRequired: true,
  fileType: 'image',
  template: '/ks/common/common/att-template?name=bhsq-sqs.pdf',
  templateName: 'bhsq-sqs.pdf',
};
const READ = 'GET /ks/common/common/att-description';
const SAVE = 'PUT /ks/config/node/attachment-types';

const render = () => renderRoutes([{ path: '/x', element: <AttachmentTypesEditor gnCoding="A1" engineNode /> }], '/x');
const names = () => (screen.getAllByTestId('annex-name') as HTMLInputElement[]).map((i) => i.value);

describe('附件类型', () => {
  it('shows 暂无数据 for a node without types', async () => {
    setupConfigServer({ [READ]: () => ({ data: { list: [], template: null } }) });
    render();
    const table = await screen.findByTestId('annex-table');
    expect((await within(table).findAllByText('暂无数据')).length).toBeGreaterThan(0);
    expect(screen.queryAllByTestId('annex-name')).toHaveLength(0);
  });

  it('edits, adds, reorders and removes types and saves the whole list in order', async () => {
    const user = userEvent.setup();
    const server = setupConfigServer({
      [READ]: (req) => {
        expect(queryOf(req).get('gnCoding')).toBe('A1');
        return {
          data: { list: [TYPE, { ...TYPE, annexNo: '02', annexName: '资质证书', templateName: null }], template: null },
        };
      },
      [SAVE]: (req) => ({ data: { list: [], template: null, echo: bodyOf(req) }, message: '保存成功' }),
    });
    render();
    await waitFor(() => expect(names()).toEqual(['营业执照', '资质证书']));
    // a new type, made required, with zip added to its formats and 50 MB
    await user.click(screen.getByTestId('annex-add'));
    await user.type(screen.getAllByTestId('annex-no')[2]!, 'cns');
    await user.type(screen.getAllByTestId('annex-name')[2]!, '信用承诺书');
    await user.type(within(screen.getAllByTestId('annex-formats')[2]!).getByRole('combobox'), 'zip');
    await pickOption(user, 'annex-formats', 'zip', 2);
    const size = screen.getAllByTestId('annex-size')[2] as HTMLInputElement;
    await user.clear(size);
    await user.type(size, '50');
    await user.click(screen.getAllByTestId('annex-required')[2]!);
    // it moves above 资质证书; 资质证书 is removed
    await user.click(screen.getAllByTestId('annex-up')[2]!);
    await user.click(screen.getAllByTestId('annex-remove')[2]!);
    await confirmPopover(user);
    await waitFor(() => expect(names()).toEqual(['营业执照', '信用承诺书']));
    await user.click(screen.getByTestId('annex-save'));
    await waitFor(() => expect(server.callsTo('/ks/config/node/attachment-types')).toHaveLength(1));
    expect(bodyOf(server.callsTo('/ks/config/node/attachment-types')[0]!)).toEqual({
      gnCoding: 'A1',
      list: [
        {
          annexNo: '01',
          annexName: '营业执照',
          annexFormat: 'pdf,jpg',
          annexSize: 10,
          isRequired: true,
          fileType: 'image',
          template: 'bhsq-sqs.pdf',
        },
        {
          annexNo: 'cns',
          annexName: '信用承诺书',
          annexFormat: 'pdf,jpg,png,zip',
          annexSize: 50,
          isRequired: true,
          fileType: '',
        },
      ],
    });
    expect(await screen.findByText('保存成功')).toBeTruthy();
  });

  it("shows the server's field errors on the fields they name", async () => {
    const user = userEvent.setup();
    setupConfigServer({
      [READ]: () => ({ data: { list: [TYPE, { ...TYPE, annexNo: '02', templateName: null }], template: null } }),
      [SAVE]: () => ({
        status: 400,
        code: 400,
        message: '附件编号不能重复',
        data: { fieldErrors: { 'list.1.annexNo': ['附件编号不能重复'], 'list.0.annexFormat': ['不支持的格式：exe'] } },
      }),
    });
    render();
    await waitFor(() => expect(names()).toHaveLength(2));
    await user.click(screen.getByTestId('annex-save'));
    expect(await findFieldError('附件编号不能重复')).toBeTruthy();
    expect(await findFieldError('不支持的格式：exe')).toBeTruthy();
    expect(screen.queryByText('保存成功')).toBeNull();
  });
});
