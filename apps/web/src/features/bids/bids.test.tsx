import { type BidKey, type BidSections, type BidSummary, bidSummarySchema } from '@ks/contracts';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest, type TransportRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { resetPrompts } from '../../components/prompt';
import { decryptSummary, makePassphraseKey, unlockPrivateKey, unwrapFileKey } from '../../lib/bidCrypto';
import { renderRoutes } from '../../test/render';
import { setupShell } from '../shell/testData';
import { type SummaryField, summaryFieldError } from './summary';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
  sessionStorage.clear();
});

const SLOW = { timeout: 20_000 };
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const json = (req: TransportRequest) => JSON.parse(String(req.body ?? '{}'));
const PASS = '投标口令 correct horse';

describe('the 开标一览表 form rules', () => {
  it('accept and refuse what bidSummarySchema does, with its messages', () => {
    const samples: Record<SummaryField, unknown[]> = {
      price: [undefined, null, 0, -1, 0.01, 1.005, 37_680_000.5, 12.34, 999_999_999_999, 1_000_000_000_000, Number.NaN],
      durationDays: [undefined, 0, 1, 1.5, 365, 3650, 3651],
      quality: [undefined, '', '   ', '合格', ' 优良 ', 'x'.repeat(50), 'x'.repeat(51)],
      manager: [undefined, '', '  ', '张建国', 'x'.repeat(20), 'x'.repeat(21)],
    };
    for (const [field, values] of Object.entries(samples) as [SummaryField, unknown[]][]) {
      for (const v of values) {
        const mine = summaryFieldError(field, v);
        const theirs = bidSummarySchema.shape[field].safeParse(v);
        expect(mine === null, `${field} = ${String(v)}`).toBe(theirs.success);
        // the schema's messages are ours too — but for a text over its length, where the schema repeats 请输入… and the
        // form says the limit (the inputs stop at it anyway)
        const tooLong = typeof v === 'string' && v.trim().length > (field === 'quality' ? 50 : 20);
        if (!theirs.success && !tooLong) {
          expect(mine).toBe(theirs.error.issues[0]!.message);
        }
      }
    }
  });
});

describe('/sealedBid/index', () => {
  it('asks for the 开标一览表 once the file is chosen and seals it under the file key with the upload', async () => {
    const made = await makePassphraseKey(PASS, 310_000, 2048);
    const key: BidKey = {
      id: uuid(1),
      kind: 'passphrase',
      algorithm: 'RSA-OAEP-256',
      publicKey: made.publicKey,
      fingerprint: 'ab'.repeat(32),
      encryptedPrivateKey: made.encryptedPrivateKey,
      iv: made.iv,
      kdf: made.kdf,
      caBindingId: null,
      caHolder: null,
      caCertFingerprint: null,
      createdAt: '2026-11-20T02:00:00.000Z',
    };
    const sections: BidSections = [
      {
        id: uuid(10),
        projectId: uuid(20),
        projectName: '太原市晋源区第二实验小学教学综合楼建设工程',
        code: 'BD-01',
        name: '施工标段',
        bidDeadline: '2099-12-21T01:30:00.000Z',
        open: true,
        registered: true,
        sealed: null,
      },
    ];
    let task: { wrappedKey: string } | null = null;
    let finish: { summary: string; plainSha256: string } | null = null;
    const { server } = setupShell({
      roleType: 'U',
      handlers: {
        'GET /ks/trade/bid/v1/key': () => ({ data: { key, certificates: [] } }),
        'GET /ks/trade/bid/v1/sections': () => ({ data: sections }),
        'POST /ks/trade/bid/v1/upload-task': (req) => {
          task = json(req);
          return { data: { uploadId: uuid(30), chunkCount: 1, chunkSize: 5 * 1024 * 1024, missing: [0] } };
        },
        'POST /ks/trade/bid/v1/chunk-upload': () => ({ data: { chunk: 0, uploaded: 1, total: 1 } }),
        'POST /ks/trade/bid/v1/finish': (req) => {
          finish = json(req);
          return {
            data: {
              id: uuid(40),
              sectionId: uuid(10),
              fileName: '投标文件.pdf',
              plainSize: 11,
              cipherSize: 27,
              cipherSha256: 'c'.repeat(64),
              plainSha256: finish!.plainSha256,
              sealedAt: '2026-11-21T02:00:00.000Z',
              keyFingerprint: key.fingerprint,
            },
          };
        },
      },
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/sealedBid/index');
    await screen.findByTestId('bid-sections', {}, SLOW);
    const input = await screen.findByTestId('bid-file-input');
    fireEvent.change(input, { target: { files: [new File(['%PDF-1.7 bid'], '投标文件.pdf')] } });
    await screen.findByTestId('bid-summary-form');
    // nothing is sent before the four fields are right
    await user.click(screen.getByTestId('bid-summary-ok'));
    expect(await screen.findByText('请输入投标报价')).toBeTruthy();
    expect(screen.getByText('请输入工期')).toBeTruthy();
    expect(screen.getByText('请输入质量标准')).toBeTruthy();
    expect(screen.getByText('请输入项目经理')).toBeTruthy();
    await user.type(screen.getByTestId('bid-summary-price'), '37680000.505');
    await user.type(screen.getByTestId('bid-summary-duration'), '365');
    await user.type(screen.getByTestId('bid-summary-quality'), ' 合格 ');
    await user.type(screen.getByTestId('bid-summary-manager'), '张建国');
    await user.click(screen.getByTestId('bid-summary-ok'));
    expect(await screen.findByText('投标报价最多保留两位小数')).toBeTruthy();
    expect(server.callsTo('/ks/trade/bid/v1/upload-task')).toHaveLength(0);
    await user.clear(screen.getByTestId('bid-summary-price'));
    await user.type(screen.getByTestId('bid-summary-price'), '37680000.5');
    await user.click(screen.getByTestId('bid-summary-ok'));
    await screen.findByTestId('bid-receipt', {}, SLOW);
    // the summary went with the finish, sealed: only the file key opens it
    expect(finish!.summary).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(finish!.summary).not.toContain('张建国');
    const raw = await unwrapFileKey(await unlockPrivateKey(key, PASS), task!.wrappedKey);
    const expected: BidSummary = { price: 37_680_000.5, durationDays: 365, quality: '合格', manager: '张建国' };
    expect(await decryptSummary(raw, finish!.summary)).toEqual(expected);
    await waitFor(() => expect(screen.queryByTestId('bid-summary-form')).toBeNull());
  }, 60_000);
});
