import type { ExtractionDetail } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Space, Spin } from 'antd';
import { createPortal } from 'react-dom';
import { useSearchParams } from 'react-router';
import { extractionDetailQuery } from '../../api/experts';
import { LoadFailure, PageFrame } from '../../components/admin';
import { conditionsText } from './ExtractionDrawer';
import { EXTRACTION_LIST_PATH } from './paths';

/** Printing shows the record alone (as the commitment book does): a copy sits in <body>, everything else is hidden. */
const PRINT_CSS = `.ks-extraction-print { display: none; }
@media print {
  body { background: #fff !important; }
  body > *:not(.ks-extraction-print) { display: none !important; }
  .ks-extraction-print { display: block !important; }
}`;

const cell = { border: '1px solid #333', padding: '4px 6px', fontSize: 13, verticalAlign: 'top' as const };
const head = { ...cell, background: '#f2f2f2', fontWeight: 600, whiteSpace: 'nowrap' as const };

/** 评标专家抽取记录: the project, the conditions, the commitment, the list with answers, the log, signatures. */
export function ExtractionRecord({ d, testId }: { d: ExtractionDetail; testId?: string }) {
  return (
    <article
      data-testid={testId}
      style={{ maxWidth: 900, margin: '0 auto', background: '#fff', padding: 24, color: '#000' }}
    >
      <h2 style={{ textAlign: 'center', margin: '0 0 4px' }}>评标专家抽取记录</h2>
      <div style={{ textAlign: 'center', fontSize: 12, marginBottom: 12 }}>抽取编号：{d.code}</div>
      <table style={{ width: '100%', borderCollapse: 'collapse', marginBottom: 12 }}>
        <tbody>
          <tr>
            <td style={head}>项目名称</td>
            <td style={cell}>{d.projectName}</td>
            <td style={head}>标段</td>
            <td style={cell}>{d.sectionName}</td>
          </tr>
          <tr>
            <td style={head}>项目编号</td>
            <td style={cell}>{d.projectRef || '—'}</td>
            <td style={head}>状态</td>
            <td style={cell}>{d.statusLabel}</td>
          </tr>
          <tr>
            <td style={head}>开标时间</td>
            <td style={cell}>{d.openingAt}</td>
            <td style={head}>评标开始时间</td>
            <td style={cell}>{d.evaluationStartAt}</td>
          </tr>
          <tr>
            <td style={head}>评标地点</td>
            <td style={cell} colSpan={3}>
              {d.location || '—'}
            </td>
          </tr>
          <tr>
            <td style={head}>抽取条件</td>
            <td style={cell} colSpan={3}>
              {conditionsText(d).join('；')}
            </td>
          </tr>
          <tr>
            <td style={head}>种子承诺</td>
            <td style={{ ...cell, fontFamily: 'monospace', wordBreak: 'break-all' }} colSpan={3}>
              SHA-256 {d.seedHash}（{d.committedAt} 抽取前公布）
            </td>
          </tr>
          <tr>
            <td style={head}>专家库快照</td>
            <td style={{ ...cell, fontFamily: 'monospace', wordBreak: 'break-all' }} colSpan={3}>
              {d.poolSize} 人，{d.snapshotAt}，哈希 {d.poolHash}
            </td>
          </tr>
          <tr>
            <td style={head}>抽取种子</td>
            <td style={{ ...cell, fontFamily: 'monospace', wordBreak: 'break-all' }} colSpan={3}>
              {d.seed ?? '名单确认后揭示'}
            </td>
          </tr>
          <tr>
            <td style={head}>抽取时间</td>
            <td style={cell}>{d.drawnAt ?? '—'}</td>
            <td style={head}>名单确认</td>
            <td style={cell}>{d.confirmedAt ?? '—'}</td>
          </tr>
        </tbody>
      </table>
      <h3 style={{ fontSize: 15, margin: '12px 0 6px' }}>抽取结果</h3>
      <table
        style={{ width: '100%', borderCollapse: 'collapse', marginBottom: 12 }}
        data-testid={testId ? `${testId}-members` : undefined}
      >
        <thead>
          <tr>
            {['序', '专业', '姓名', '性别', '职称', '工作单位', '联系电话', '答复', '备注'].map((h) => (
              <th key={h} style={head}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {d.members.map((m) => (
            <tr key={m.id}>
              <td style={cell}>
                {m.line + 1}-{m.seq + 1}
                {m.replacement ? '（补）' : ''}
              </td>
              <td style={cell}>{m.specialty}</td>
              <td style={cell}>{m.name ?? '保密'}</td>
              <td style={cell}>{m.gender ?? ''}</td>
              <td style={cell}>{m.title ?? ''}</td>
              <td style={cell}>{m.employer ?? ''}</td>
              <td style={cell}>{m.phone ?? ''}</td>
              <td style={cell}>{m.answerLabel}</td>
              <td style={cell}>{m.note}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {d.log.length ? (
        <>
          <h3 style={{ fontSize: 15, margin: '12px 0 6px' }}>过程记录</h3>
          <ol style={{ fontSize: 12, paddingLeft: 20, margin: 0 }}>
            {d.log.map((l, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the log is fixed and ordered
              <li key={i}>
                {l.time} {l.who}：{l.logbook}
              </li>
            ))}
          </ol>
        </>
      ) : null}
      <div style={{ display: 'flex', justifyContent: 'space-between', marginTop: 40, fontSize: 13 }}>
        <span>抽取人（签字）：</span>
        <span>监督人（签字）：</span>
        <span>日期：</span>
      </div>
    </article>
  );
}

/** 抽取记录 `/expertExtraction/extractRecord?id=`: the printable extraction record (the names: see the detail's rules). */
export default function RecordPrintPage() {
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const q = useQuery(extractionDetailQuery(id));
  return (
    <PageFrame section={{ title: '专家抽取', to: EXTRACTION_LIST_PATH }} title="抽取记录">
      {q.isLoading ? (
        <Spin />
      ) : q.error ? (
        <LoadFailure error={q.error} what="抽取记录" />
      ) : q.data ? (
        <>
          <Space style={{ marginBottom: 12 }}>
            <Button type="primary" onClick={() => window.print()} data-testid="print-record">
              打印
            </Button>
          </Space>
          <ExtractionRecord d={q.data} testId="extraction-record" />
          {createPortal(
            <div className="ks-extraction-print">
              <style>{PRINT_CSS}</style>
              <ExtractionRecord d={q.data} />
            </div>,
            document.body,
          )}
        </>
      ) : null}
    </PageFrame>
  );
}
