import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { currentPrompt, resetPrompts } from '../../components/prompt';
import { allNotices, createPortalServer } from '../../test/portal';
import { renderRoutes } from '../../test/render';
import { noticeDetail } from '../../test/server';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

function setup(detail = noticeDetail(1)) {
  const server = createPortalServer({ 'GET /ks/portal/v1/notices/detail': () => ({ data: detail }) });
  configureRequest({ transport: server.transport });
  return server;
}

const render = (id: string) => renderRoutes(routes, `/transac-news?id=${id}`, { antd: false });

describe('notice detail', () => {
  it('shows title, facts, the body and the attachments, with the breadcrumb', async () => {
    const detail = noticeDetail(1, {
      attachments: [
        { name: '招标文件.pdf', url: '/files/a.pdf' },
        { name: '图纸.zip', url: 'javascript:alert(1)' },
        { name: '清单.xlsx', url: '/\\evil.example/x' },
      ],
    });
    const server = setup(detail);
    render(detail.id);
    expect((await screen.findByTestId('notice-detail-title')).textContent).toBe(detail.title);
    const meta = screen.getByTestId('notice-meta').textContent ?? '';
    for (const part of [
      detail.category,
      detail.tradeType,
      detail.region,
      detail.projectCode!,
      detail.tenderer!,
      '某某市滨河东路道路改造工程',
      '施工一标段',
    ]) {
      expect(meta).toContain(part);
    }
    expect(meta).toContain('1,234,567.50 元');
    expect(screen.getByTestId('notice-body').innerHTML).toBe('<p>正文</p>');
    const attachments = screen.getAllByTestId('notice-attachment');
    expect(within(attachments[0]).getByRole('link', { name: '招标文件.pdf' }).getAttribute('href')).toBe(
      '/files/a.pdf',
    );
    // an unsafe address is shown as text, not as a link
    expect(within(attachments[1]).queryByRole('link')).toBeNull();
    expect(attachments[1].textContent).toContain('图纸.zip');
    // a backslash address leaves the site in a browser (/\\host is //host): no link either
    expect(within(attachments[2]).queryByRole('link')).toBeNull();
    expect(
      within(screen.getByTestId('breadcrumb'))
        .getAllByRole('listitem')
        .map((l) => l.textContent),
    ).toEqual(['首页', '交易信息', '公告详情']);
    expect(server.callsTo('/ks/portal/v1/notices/detail')[0].url).toContain(`id=${detail.id}`);
    await waitFor(() => expect(document.title).toBe(detail.title));
  });

  it('sanitises the body again before rendering it', async () => {
    const detail = noticeDetail(2, {
      bodyHtml: '<p>正文</p><script>window.__x=1</script><img src="x" onerror="window.__y=1">',
    });
    setup(detail);
    render(detail.id);
    const body = await screen.findByTestId('notice-body');
    expect(body.textContent).toBe('正文');
    expect(body.innerHTML).not.toContain('onerror');
    expect(body.querySelector('script')).toBeNull();
    expect((window as unknown as { __x?: number }).__x).toBeUndefined();
  });

  it('a withdrawn or unknown notice shows a friendly page with a way back, without a dialog', async () => {
    const server = createPortalServer();
    configureRequest({ transport: server.transport });
    render('00000000-0000-4000-8000-999999999999');
    expect((await screen.findByTestId('notice-not-found')).textContent).toContain('公告不存在或已撤回');
    expect(screen.getByTestId('back-to-list').getAttribute('href')).toBe('/transac');
    expect(currentPrompt()).toBeNull();
  });

  it('an id that is not a UUID is not even asked for', async () => {
    const server = createPortalServer();
    configureRequest({ transport: server.transport });
    renderRoutes(routes, '/transac-news?id=1', { antd: false });
    expect(await screen.findByTestId('notice-not-found')).toBeTruthy();
    expect(server.callsTo('/ks/portal/v1/notices/detail')).toHaveLength(0);
    expect(allNotices.length).toBeGreaterThan(0);
  });
});
