import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { allEntities, allNotices, createPortalServer } from '../../test/portal';
import { renderRoutes } from '../../test/render';
import { navKeyOf } from './PortalFrame';

let hall: string | null = 'https://hall.example.test/';
let server: ReturnType<typeof createPortalServer>;

beforeEach(() => {
  hall = 'https://hall.example.test/';
  server = createPortalServer({
    'GET /ks/portal/v1/home/config': () => ({ data: { loginMode: 'ggfw', bidHallUrl: hall } }),
  });
  configureRequest({ transport: server.transport });
});

afterEach(() => configureRequest());

const render = (path: string) => renderRoutes(routes, path, { antd: false });

describe('navKeyOf', () => {
  it('maps routes and their child routes to the navigation item', () => {
    expect(navKeyOf('/')).toBe('home');
    expect(navKeyOf('/transac')).toBe('transac');
    expect(navKeyOf('/transac-news')).toBe('transac');
    expect(navKeyOf('/market')).toBe('market');
    expect(navKeyOf('/market-list/')).toBe('market');
    expect(navKeyOf('/market-details')).toBe('market');
    expect(navKeyOf('/login')).toBeNull();
  });
});

describe('portal header', () => {
  const cases: [string, string][] = [
    ['/', 'nav-home'],
    ['/transac', 'nav-transac'],
    [`/transac-news?id=${allNotices[0].id}`, 'nav-transac'],
    ['/market', 'nav-market'],
    ['/market-list?kind=agency', 'nav-market'],
    [`/market-details?kind=enterprise&id=${allEntities[0].id}`, 'nav-market'],
  ];
  for (const [path, active] of cases) {
    it(`${path}: ${active} is the current page; transparent only on /`, async () => {
      render(path);
      const header = await screen.findByTestId('portal-header');
      for (const id of ['nav-home', 'nav-transac', 'nav-market']) {
        expect(screen.getByTestId(id).getAttribute('aria-current')).toBe(id === active ? 'page' : null);
      }
      expect(header.getAttribute('data-transparent')).toBe(path === '/' ? 'true' : 'false');
      expect(screen.getByTestId('site-footer')).toBeTruthy();
      if (path !== '/') expect(screen.getByTestId('breadcrumb')).toBeTruthy();
    });
  }

  it('links the bid-opening hall in a new window, and offers 登录 but no 注册', async () => {
    render('/transac');
    // without the meta tags (as here) the address comes from the API
    await waitFor(() => expect(screen.getByTestId('nav-hall').getAttribute('href')).toBe('https://hall.example.test/'));
    const link = screen.getByTestId('nav-hall');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(screen.getByTestId('nav-login').getAttribute('href')).toBe('/login');
    expect(screen.queryByText('注册')).toBeNull();
  });

  it("without an external hall links the platform's own opening hall, in a new window", async () => {
    hall = null;
    render('/transac');
    await screen.findAllByTestId('notice-row');
    await waitFor(() => expect(server.callsTo('/ks/portal/v1/home/config').length).toBeGreaterThan(0));
    const link = screen.getByTestId('nav-hall');
    expect(link.tagName).toBe('A');
    expect(link.getAttribute('href')).toBe('/bid/bidMeet');
    expect(link.getAttribute('target')).toBe('_blank');
    // same origin: the new window keeps the opener, and with it a copy of the session (sessionStorage)
    expect(link.getAttribute('rel')).toBe('opener');
  });

  it("ignores a hall address that is not http(s): the platform's own hall instead", async () => {
    hall = 'javascript:alert(1)';
    render('/market');
    await screen.findByTestId('market-entry-enterprise');
    await waitFor(() => expect(screen.getByTestId('nav-hall').getAttribute('href')).toBe('/bid/bidMeet'));
  });
});
