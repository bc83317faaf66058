import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { allEntities, allNotices, createPortalServer } from '../../test/portal';
import { renderRoutes } from '../../test/render';
import { BID_HALL_MISSING, navKeyOf } from './PortalFrame';

let hall: string | null = 'https://hall.example.test/';

beforeEach(() => {
  hall = 'https://hall.example.test/';
  const server = createPortalServer({
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
    await waitFor(() => expect(screen.getByTestId('nav-hall').tagName).toBe('A'));
    const link = screen.getByTestId('nav-hall');
    expect(link.getAttribute('href')).toBe('https://hall.example.test/');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(screen.getByTestId('nav-login').getAttribute('href')).toBe('/login');
    expect(screen.queryByText('注册')).toBeNull();
  });

  it('shows 开标大厅 disabled with a hint when no hall is configured', async () => {
    hall = null;
    render('/transac');
    await waitFor(() => expect(screen.getByTestId('nav-hall').getAttribute('title')).toBe(BID_HALL_MISSING));
    const item = screen.getByTestId('nav-hall');
    expect(item.tagName).toBe('SPAN');
    expect(item.getAttribute('title')).toBe(BID_HALL_MISSING);
    expect(item.getAttribute('href')).toBeNull();
  });

  it('ignores a hall address that is not http(s)', async () => {
    hall = 'javascript:alert(1)';
    render('/market');
    await screen.findByTestId('market-entry-enterprise');
    expect(screen.getByTestId('nav-hall').tagName).toBe('SPAN');
  });
});
