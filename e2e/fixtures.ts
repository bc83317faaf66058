import { test as base } from '@playwright/test';
import { GGFW_PORTS } from './playwright.config';

export { type APIRequestContext, type BrowserContext, expect, type Page, type Request } from '@playwright/test';

/**
 * The tests of the ggfw project run in parallel workers, each against a server of its own (demo accounts are shared
 * and a new sign-in ends the account's other sessions): the worker in parallel slot i uses GGFW_PORTS[i].
 */
export const test = base.extend({
  baseURL: async ({ baseURL }, use, testInfo) => {
    if (testInfo.project.name !== 'ggfw') return use(baseURL);
    const port = GGFW_PORTS[testInfo.parallelIndex % GGFW_PORTS.length];
    await use(`http://127.0.0.1:${port}`);
  },
});
