import { useQuery } from '@tanstack/react-query';
import { formatDateTime } from '../../lib/format';
import { Breadcrumb, Empty, ErrorState, PortalFrame, SkeletonLines } from '../portal';
import { anchorsQuery, verifyQuery } from './api';
import './ledger.css';

/**
 * 开评标日志校验 `/bid/ledger` for anyone (a public path): every opening and evaluation event is an entry of one
 * append-only chain, each carrying the SHA-256 of the one before. The server recomputes the whole chain from the first
 * entry and checks it against the anchors (the chain's head at the end of each day) published here; the page shows
 * whether it is intact, or which entry no longer fits and why. Light page: plain React in the portal frame.
 */
export default function LedgerVerifyPage() {
  const verify = useQuery(verifyQuery);
  const anchors = useQuery(anchorsQuery(30));
  const v = verify.data;
  return (
    <PortalFrame>
      <div className="kp-container kp-page">
        <Breadcrumb items={[{ label: '首页', to: '/' }, { label: '开评标日志校验' }]} />
        <section className="kp-card" data-testid="ledger-verify">
          <div className="kp-card-head">
            <h1 className="kp-card-title">开评标日志校验</h1>
            <button
              type="button"
              className="ks-btn"
              onClick={() => void verify.refetch()}
              disabled={verify.isFetching}
              data-testid="ledger-recheck"
            >
              {verify.isFetching ? '校验中…' : '重新校验'}
            </button>
          </div>
          <p className="kl-note">
            开标、评标过程中的每一步（签到、解密、唱标、评分、复核等）都按顺序记入日志；每条记录带有前一条记录的 SHA-256
            哈希，任何一条被修改、删除或插入，都会在此处校验失败并指出是第几条。每日结束时日志末条的哈希作为锚点在本页公布，整体改写日志也能被发现。
          </p>
          {verify.isPending ? (
            <SkeletonLines rows={3} />
          ) : verify.isError || !v ? (
            <ErrorState onRetry={() => void verify.refetch()} />
          ) : (
            <div
              className={v.intact ? 'kl-result kl-ok' : 'kl-result kl-bad'}
              role="status"
              data-testid="ledger-result"
            >
              <div className="kl-verdict" data-testid="ledger-verdict">
                {v.intact ? '✓ 日志完整，未发现篡改' : `✗ 校验失败：${v.broken?.message ?? ''}`}
              </div>
              <dl className="kl-facts">
                <dt>已校验记录</dt>
                <dd data-testid="ledger-checked">{v.checked} 条</dd>
                <dt>日志末条</dt>
                <dd>第 {v.headSeq} 条</dd>
                <dt>末条哈希</dt>
                <dd className="kl-hash" data-testid="ledger-head-hash">
                  {v.headHash}
                </dd>
                <dt>已核对锚点</dt>
                <dd>{v.anchors} 个</dd>
                <dt>校验时间</dt>
                <dd>{formatDateTime(v.checkedAt)}</dd>
              </dl>
            </div>
          )}
        </section>
        <section className="kp-card kp-section" data-testid="ledger-anchors">
          <h2 className="kp-card-title">每日锚点</h2>
          {anchors.isPending ? (
            <SkeletonLines rows={4} />
          ) : anchors.isError ? (
            <ErrorState onRetry={() => void anchors.refetch()} />
          ) : anchors.data.records.length === 0 ? (
            <Empty text="尚未公布锚点" />
          ) : (
            <div className="kp-table-wrap">
              <table className="kp-table">
                <thead>
                  <tr>
                    <th scope="col">日期</th>
                    <th scope="col">日志末条</th>
                    <th scope="col">哈希（SHA-256）</th>
                    <th scope="col">公布时间</th>
                  </tr>
                </thead>
                <tbody>
                  {anchors.data.records.map((a) => (
                    <tr key={a.day}>
                      <td>{a.day}</td>
                      <td>{a.seq === 0 ? '（尚无记录）' : `第 ${a.seq} 条`}</td>
                      <td className="kl-hash">{a.hash}</td>
                      <td>{formatDateTime(a.publishedAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      </div>
    </PortalFrame>
  );
}
