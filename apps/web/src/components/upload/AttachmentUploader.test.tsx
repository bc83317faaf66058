import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { theme as antdTheme, ConfigProvider } from 'antd';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UploadedFile } from '../../api/files';
import { configureRequest, type Transport } from '../../api/request';
import { findMessage } from '../../features/engine/testkit';
import { browser } from '../../lib/browser';
import { renderRoutes } from '../../test/render';
import { resetPrompts } from '../prompt';
import { AttachmentUploader, type AttachmentUploaderProps } from './AttachmentUploader';
import { PreviewDialog } from './PreviewDialog';
import { FILE_PATHS, fileOf, formOf, setupFiles, stored } from './testkit';
import type { AttachmentFile } from './types';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const MB = 1024 * 1024;
const target = { gnCoding: 'ZYZC', systemCoding: 'XYGL' };

function Harness({ initial = [], ...props }: Partial<AttachmentUploaderProps> & { initial?: AttachmentFile[] }) {
  const [files, setFiles] = useState<AttachmentFile[]>(initial);
  const onUploaded = (f: UploadedFile) =>
    setFiles((l) => [
      ...l,
      {
        fileId: f.fileId,
        fileName: f.fileName,
        fileSize: f.fileSize,
        url: f.url,
        preview: f.preview,
        annexNo: f.fileNo,
      },
    ]);
  return (
    <AttachmentUploader
      target={target}
      files={files}
      onUploaded={onUploaded}
      onRemove={(f) => setFiles((l) => l.filter((x) => x.fileId !== f.fileId))}
      {...props}
    />
  );
}

function show(props: Partial<AttachmentUploaderProps> & { initial?: AttachmentFile[] } = {}) {
  vi.spyOn(browser, 'pathname').mockReturnValue('/applyDetail');
  const user = userEvent.setup({ applyAccept: false });
  renderRoutes([{ path: '/x', element: <Harness {...props} /> }], '/x');
  const input = () => document.querySelector('input[type=file]') as HTMLInputElement;
  return { user, input };
}

const cards = () => screen.queryAllByTestId('attachment-file');

describe('attachment uploader (screen 7)', () => {
  it('refuses other formats and more than 3 files before sending anything', async () => {
    const server = setupFiles();
    const { user, input } = show();
    await screen.findByTestId('attachment-upload');
    await user.upload(input(), fileOf('说明.docx'));
    await findMessage('请上传图片或PDF文件');
    await user.upload(input(), [fileOf('1.png'), fileOf('2.png'), fileOf('3.png'), fileOf('4.png')]);
    await findMessage('最多只能上传3个文件');
    expect(server.calls).toHaveLength(0);
  });

  it('refuses a renamed .exe by its content before sending it', async () => {
    const server = setupFiles();
    const { user, input } = show();
    await screen.findByTestId('attachment-upload');
    await user.upload(input(), fileOf('setup.png', 4096, [0x4d, 0x5a, 0x90, 0x00]));
    await findMessage('文件内容与扩展名不符，请上传真实的文件');
    expect(server.calls).toHaveLength(0);
  });

  it('uploads an image and a PDF, shows them, previews the image and the PDF in a frame', async () => {
    const server = setupFiles();
    const { user, input } = show();
    await screen.findByTestId('attachment-upload');
    await user.upload(input(), [fileOf('身份证.png'), fileOf('证书.pdf')]);
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(server.callsTo(FILE_PATHS.attachment)).toHaveLength(2);
    expect(formOf(server.callsTo(FILE_PATHS.attachment)[0]).fields).toEqual(target);
    // the image's thumbnail comes from its signed preview address
    const thumb = await screen.findByTestId('attachment-thumb');
    expect(thumb.getAttribute('src')).toMatch(/file\/download\?fileId=.*&inline=1&exp=1&sig=s$/);

    await user.click(within(cards()[0]).getByTestId('attachment-preview'));
    const img = await screen.findByTestId('preview-image');
    expect(img.getAttribute('src')).toContain('inline=1');
    expect(screen.getByTestId('preview-position').textContent).toBe('1 / 2');
    await user.click(screen.getByTestId('preview-next'));
    const frame = await screen.findByTestId('preview-pdf');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('src')).toContain('inline=1');
  });

  it('the preview dialog says 请先选择要查看的图片 when there is nothing to show', async () => {
    renderRoutes(
      [{ path: '/x', element: <PreviewDialog open files={[]} index={0} onIndex={() => {}} onClose={() => {}} /> }],
      '/x',
    );
    expect((await screen.findByTestId('preview-empty')).textContent).toContain('请先选择要查看的图片');
  });

  it('未上传: nothing to preview, so 预览 is not offered enabled; nor for files that are no image or PDF', async () => {
    setupFiles();
    show({ readOnly: true });
    expect((await screen.findByTestId('attachment-none')).textContent).toBe('未上传');
    expect((screen.getByTestId('attachment-preview-all') as HTMLButtonElement).disabled).toBe(true);
  });

  it('预览 opens the first image or PDF once there is one', async () => {
    setupFiles();
    const { user } = show({ readOnly: true, initial: [stored(1, '营业执照.pdf')] });
    const all = (await screen.findByTestId('attachment-preview-all')) as HTMLButtonElement;
    expect(all.disabled).toBe(false);
    await user.click(all);
    // the PDF viewer is titled with the file's name
    expect((await screen.findByTestId('preview-pdf')).getAttribute('title')).toBe('营业执照.pdf');
    expect(document.querySelector('.ant-modal-title')?.textContent).toBe('营业执照.pdf');
  });

  it('file cards follow the dark theme: no light background under the theme’s white text', async () => {
    setupFiles();
    vi.spyOn(browser, 'pathname').mockReturnValue('/applyDetail');
    renderRoutes(
      [
        {
          path: '/x',
          element: (
            <ConfigProvider theme={{ algorithm: antdTheme.darkAlgorithm }}>
              <Harness initial={[stored(1, '营业执照.png')]} readOnly />
            </ConfigProvider>
          ),
        },
      ],
      '/x',
    );
    const card = await screen.findByTestId('attachment-file');
    expect(card.style.background).not.toBe('rgb(250, 250, 250)');
    // antd's dark fill and text colours
    expect(card.style.background).toMatch(/^rgba\(255, 255, 255, 0\.0\d+\)$/);
    expect(card.style.color).toMatch(/^rgba\(255, 255, 255, 0\.8\d*\)$/);
  });

  it('removes a file after confirmation', async () => {
    setupFiles();
    const { user } = show({ initial: [stored(1, '旧.png')] });
    await user.click(await screen.findByTestId('attachment-remove'));
    expect(cards()).toHaveLength(1);
    await user.click(await screen.findByRole('button', { name: '确定' }));
    await waitFor(() => expect(cards()).toHaveLength(0));
  });

  it('a refused upload shows the server message, else 上传失败！; typed: 文件上传失败，请重新上传！', async () => {
    let answer: { status: number; code: number; message: string } = {
      status: 400,
      code: 400,
      message: '文件内容与扩展名不符，请上传真实的文件',
    };
    setupFiles({
      [`POST ${FILE_PATHS.attachment}`]: () => answer,
      [`POST ${FILE_PATHS.small}`]: () => ({ status: 500, code: 500, message: '' }),
    });
    const { user, input } = show();
    await screen.findByTestId('attachment-upload');
    await user.upload(input(), fileOf('a.png'));
    await findMessage('文件内容与扩展名不符，请上传真实的文件');
    answer = { status: 500, code: 500, message: '' };
    await user.upload(input(), fileOf('b.png'));
    await findMessage('上传失败！');
    expect(cards()).toHaveLength(0);
  });

  it('typed: the type’s rules and its failure message', async () => {
    setupFiles({ [`POST ${FILE_PATHS.small}`]: () => ({ status: 500, code: 500, message: '' }) });
    const { user, input } = show({
      type: { annexNo: '02', annexName: '执业资格证书', annexFormat: 'pdf,jpg,png', annexSize: 1 },
      target: { ...target, fileNo: '02', fileType: 'pdf' },
    });
    await screen.findByTestId('attachment-upload');
    expect(input().getAttribute('accept')).toBe('.pdf,.jpg,.png');
    await user.upload(input(), fileOf(`${'长'.repeat(62)}.pdf`));
    await findMessage('文件名超过64位字符，请重新命名后上传！');
    await user.upload(input(), fileOf('证书.webp'));
    await findMessage('格式错误，请上传【pdf,jpg,png】格式');
    await user.upload(input(), fileOf('证书.pdf', MB + 1));
    await findMessage('文件大小不能超过【1 MB】!');
    await user.upload(input(), fileOf('证书.pdf'));
    await findMessage('文件上传失败，请重新上传！');
  });

  it('read-only (administrators, reviewers): links and previews, no upload or delete controls', async () => {
    setupFiles();
    const { user } = show({ readOnly: true, initial: [stored(1, '执照.png'), stored(2, '申请书.pdf')] });
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(screen.queryByTestId('attachment-upload')).toBeNull();
    expect(screen.queryByTestId('attachment-remove')).toBeNull();
    expect(document.querySelector('input[type=file]')).toBeNull();
    expect(screen.getAllByTestId('attachment-download')).toHaveLength(2);
    await user.click(within(cards()[1]).getByTestId('attachment-preview'));
    expect((await screen.findByTestId('preview-pdf')).getAttribute('src')).toContain(
      'fileId=10000000-0000-4000-a000-000000000002',
    );
  });

  it('a video plays in the video dialog: a frame 780 px high, the signed download address', async () => {
    setupFiles();
    const { user } = show({ readOnly: true, initial: [stored(3, '现场.mp4')] });
    await user.click(await screen.findByTestId('attachment-preview'));
    const frame = await screen.findByTestId('video-frame');
    expect(frame.style.height).toBe('780px');
    const video = await screen.findByTestId('video-player');
    expect(video.getAttribute('src')).toBe(
      '/ks/common/common/file/download?fileId=10000000-0000-4000-a000-000000000003&inline=1&exp=1&sig=s',
    );
  });

  it('over 5 MB: a cancellable progress bar; cancel asks first, then frees the upload (upload-cancel)', async () => {
    const server = setupFiles();
    // chunk requests wait until the test lets them go
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let chunksWaiting = 0;
    const transport: Transport = async (req) => {
      if (req.url === FILE_PATHS.chunk) {
        chunksWaiting += 1;
        await gate;
      }
      return server.transport(req);
    };
    configureRequest({ transport });
    const { user, input } = show({ hash: async () => 'a'.repeat(32) });
    await screen.findByTestId('attachment-upload');
    await user.upload(input(), fileOf('大文件.pdf', 11 * MB));
    const item = await screen.findByTestId('upload-progress-item');
    expect(item.getAttribute('data-chunked')).toBe('1');
    await waitFor(() => expect(chunksWaiting).toBe(1));
    const uploadId = [...server.tasks.keys()][0];
    expect(uploadId).toBeTruthy();
    expect(within(item).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('2');

    // cancel → confirmation; 继续上传 keeps it going
    await user.click(within(item).getByTestId('upload-cancel'));
    await user.click(await screen.findByRole('button', { name: '继续上传' }));
    expect(server.callsTo(FILE_PATHS.cancel)).toHaveLength(0);
    await user.click(within(item).getByTestId('upload-cancel'));
    expect(await screen.findByText('确定取消上传「大文件.pdf」吗？已上传的部分将被删除。')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(server.callsTo(FILE_PATHS.cancel)).toHaveLength(1));
    expect(JSON.parse(String(server.callsTo(FILE_PATHS.cancel)[0].body))).toEqual({ uploadId });
    expect(within(item).getByText(/正在取消/)).toBeTruthy();
    release();
    // the 3 s wait, then the row goes and nothing was stored
    await waitFor(() => expect(screen.queryByTestId('upload-progress-item')).toBeNull(), { timeout: 5000 });
    await findMessage('已取消上传');
    // the chunk in flight when the cancel came was the last one sent: the stop flag ended the loop
    expect(chunksWaiting).toBe(1);
    expect(server.callsTo(FILE_PATHS.merge)).toHaveLength(0);
    expect(server.tasks.size).toBe(0);
    expect(cards()).toHaveLength(0);
  });
});
