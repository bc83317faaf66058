import { CheckCircleFilled, PrinterOutlined } from '@ant-design/icons';
import type { ApiData } from '@ks/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Descriptions, Space, Tag } from 'antd';
import type { ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { formatDateTime } from '../../lib/format';
import { StandardTemplate } from '../library';
import { LETTERS_KEY, signLetter } from './api';

export type CreditLetter = ApiData<'creditLetterInfo'>;

export const SIGN_CONFIRM = '签署后承诺书内容即生效并存档，不可撤回。确定以本企业名义签署信用承诺书吗？';

/** The lines of a commitment book: the heading, the pledges, and the signature block (who, legal person, date). */
export function letterParts(content: string): { heading: string | null; body: string[]; signature: string[] } {
  const lines = content
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const heading = lines[0] === '信用承诺书' ? lines[0] : null;
  const rest = heading ? lines.slice(1) : lines;
  const isSignature = (l: string) => /^(承诺单位|法定代表人|日期)：/.test(l);
  return { heading, body: rest.filter((l) => !isSignature(l)), signature: rest.filter(isSignature) };
}

/**
 * Printing shows the document alone: a copy of it sits directly in <body> (hidden on screen), and the print style
 * sheet hides every other child of <body> — the app's frame, menus and buttons take no room and paint nothing.
 */
const PRINT_CSS = `.ks-letter-print { display: none; }
@media print {
  body { background: #fff !important; }
  body > *:not(.ks-letter-print) { display: none !important; }
  .ks-letter-print { display: block !important; }
}`;

function PrintCopy({ letter }: { letter: CreditLetter }) {
  return createPortal(
    <div className="ks-letter-print">
      <style>{PRINT_CSS}</style>
      <LetterDocument letter={letter} forPrint />
    </div>,
    document.body,
  );
}

/** The book as a document: heading, pledges, signature block, and the online-signature stamp once signed. */
export function LetterDocument({ letter, forPrint = false }: { letter: CreditLetter; forPrint?: boolean }) {
  const { heading, body, signature } = letterParts(letter.content);
  return (
    <article
      data-testid={forPrint ? undefined : 'letter-document'}
      style={{
        position: 'relative',
        maxWidth: 760,
        margin: '0 auto',
        padding: '40px 56px',
        background: '#fff',
        border: forPrint ? 'none' : '1px solid #eceff4',
        borderRadius: 4,
        boxShadow: forPrint ? 'none' : '0 2px 8px rgba(31,42,68,0.06)',
        color: '#1f2a44',
        fontSize: 15,
        lineHeight: 2,
      }}
    >
      {heading ? (
        <h2 style={{ textAlign: 'center', fontSize: 24, letterSpacing: 8, margin: '0 0 24px' }}>{heading}</h2>
      ) : null}
      {body.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines of a fixed text, in order
        <p key={i} style={{ margin: '0 0 6px', textIndent: i === 0 ? '2em' : 0 }}>
          {line}
        </p>
      ))}
      <div style={{ marginTop: 40, marginLeft: 'auto', width: 'fit-content', minWidth: 280 }} data-testid="letter-sign">
        {signature.map((line) => (
          <div key={line}>{line}</div>
        ))}
      </div>
      {letter.signed ? (
        <div
          role="img"
          aria-label="已在线签署"
          data-testid={forPrint ? undefined : 'letter-stamp'}
          style={{
            position: 'absolute',
            right: 72,
            bottom: 36,
            width: 108,
            height: 108,
            border: '3px solid rgba(207,19,34,0.75)',
            borderRadius: '50%',
            color: 'rgba(207,19,34,0.8)',
            display: 'flex',
            flexDirection: 'column',
            alignItems: 'center',
            justifyContent: 'center',
            transform: 'rotate(-14deg)',
            fontWeight: 600,
            lineHeight: 1.4,
            pointerEvents: 'none',
          }}
        >
          <span style={{ fontSize: 18, letterSpacing: 2 }}>已签署</span>
          <span style={{ fontSize: 11 }}>在线签署</span>
        </div>
      ) : null}
    </article>
  );
}

/**
 * One enterprise's commitment book: who and whether it is signed, the document, 打印, and 签署 for the enterprise's
 * own user while it is unsigned (the server signs only for the caller's enterprise and refuses a second signature).
 */
export function LetterView({ letter, canSign, extra }: { letter: CreditLetter; canSign: boolean; extra?: ReactNode }) {
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const sign = useMutation({
    mutationFn: signLetter,
    onSuccess: async () => {
      void message.success('签署成功');
      await queryClient.invalidateQueries({ queryKey: LETTERS_KEY });
    },
  });
  const onSign = () =>
    modal.confirm({
      title: '签署信用承诺书',
      content: SIGN_CONFIRM,
      okText: '确认签署',
      cancelText: '取消',
      okButtonProps: { 'data-testid': 'letter-sign-confirm' } as never,
      onOk: () => sign.mutateAsync().catch(() => undefined),
    });

  return (
    <Card
      data-testid="credit-letter-detail"
      title={
        <Space>
          信用承诺书
          {letter.signed ? (
            <Tag icon={<CheckCircleFilled />} color="success" data-testid="letter-status">
              已签署
            </Tag>
          ) : (
            <Tag color="warning" data-testid="letter-status">
              未签署
            </Tag>
          )}
        </Space>
      }
      extra={
        <Space>
          {extra}
          <Button icon={<PrinterOutlined />} onClick={() => window.print()} data-testid="letter-print">
            打印
          </Button>
          {canSign && !letter.signed ? (
            <Button type="primary" onClick={onSign} loading={sign.isPending} data-testid="letter-sign-button">
              签署
            </Button>
          ) : null}
        </Space>
      }
    >
      <Descriptions
        size="small"
        column={{ xs: 1, md: 2 }}
        style={{ marginBottom: 20 }}
        data-testid="letter-meta"
        items={[
          { key: 'name', label: '企业名称', children: letter.enterpriseName },
          { key: 'code', label: '统一社会信用代码', children: letter.creditCode },
          { key: 'legal', label: '法定代表人', children: letter.legalPerson ?? '—' },
          {
            key: 'signed',
            label: '签署情况',
            children: letter.signed
              ? `${letter.signerName ?? ''} 于 ${formatDateTime(letter.signedAt)} 在线签署`
              : canSign
                ? '尚未签署：阅读下方承诺内容后点击“签署”'
                : '企业尚未签署',
          },
        ]}
      />
      {/* the current standard text of the commitment book (标准文件, issue 19) */}
      <StandardTemplate />
      <LetterDocument letter={letter} />
      <PrintCopy letter={letter} />
    </Card>
  );
}
