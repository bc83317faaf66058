import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../api/request';
import { AppProviders, createQueryClient } from '../app/AppProviders';
import { createFakeServer, platformInfo } from '../test/server';
import { FILING_SITE_URL, SiteFooter } from './SiteFooter';

afterEach(() => {
  configureRequest();
});

describe('SiteFooter', () => {
  it('shows the description, 服务热线 and the filing code linking to the national filing site in a new tab', async () => {
    sessionStorage.setItem('token', 'ignored');
    const server = createFakeServer({ 'GET /ks/portal/v1/home/platform': () => ({ data: platformInfo }) });
    configureRequest({ transport: server.transport });
    render(
      <AppProviders queryClient={createQueryClient()}>
        <SiteFooter />
      </AppProviders>,
    );
    const link = await screen.findByTestId('footer-filing');
    expect(link.textContent).toBe(platformInfo.filingsCoding);
    expect(link.getAttribute('href')).toBe(FILING_SITE_URL);
    expect(FILING_SITE_URL).toBe('https://beian.miit.gov.cn');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.getByTestId('footer-phone').textContent).toBe('服务热线：400-800-1234');
    expect(screen.getByTestId('footer-describe').textContent).toBe(platformInfo.describe);
    // platform information is public: no token is sent
    await waitFor(() => expect(server.calls).toHaveLength(1));
    expect(server.calls[0].headers.Authorization).toBeUndefined();
  });
});
