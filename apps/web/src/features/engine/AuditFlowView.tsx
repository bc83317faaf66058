import { Tag, Timeline } from 'antd';
import type { AuditFlowStep } from '../../api/engine';
import { NotStarted } from '../../components/placeholders/NotStarted';
import { actionText, levelText } from '../../engine/model';
import { formatDateTime } from '../../lib/format';

const COLORS: Record<string, string> = {
  submit: 'blue',
  pass: 'green',
  reject: 'red',
  revoke: 'gray',
  assign: 'orange',
};

export interface AuditFlowViewProps {
  /** the record's audit history, oldest first; undefined: there is no record (nothing submitted) */
  flow: readonly AuditFlowStep[] | undefined;
  /** the level under review now (0: none) */
  pendingLevel?: number;
  testId?: string;
}

/**
 * A record's audit flow: each step with its level, action, reviewer, time and suggestion, and the level waiting for
 * a decision. No record reads 暂无数据或未提交 (-2); a record never submitted reads 流程尚未开始 (-1).
 */
export function AuditFlowView({ flow, pendingLevel = 0, testId = 'audit-flow-view' }: AuditFlowViewProps) {
  const state = flow === undefined ? -2 : flow.length === 0 ? -1 : 1;
  const rounds = new Set((flow ?? []).map((s) => s.round)).size;
  return (
    <div data-testid={testId}>
      <NotStarted state={state}>
        <Timeline
          items={[
            ...(flow ?? []).map((s, i) => ({
              key: `${s.round}-${i}`,
              color: COLORS[s.action] ?? 'blue',
              content: (
                <div data-testid="audit-step" style={{ fontSize: 13 }}>
                  <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 6 }}>
                    {rounds > 1 ? <Tag style={{ marginInlineEnd: 0 }}>第{s.round}轮</Tag> : null}
                    <span style={{ fontWeight: 600 }} data-testid="audit-step-level">
                      {s.action === 'submit' || s.action === 'revoke' ? '申请人' : levelText(s.level)}
                    </span>
                    <Tag
                      color={s.action === 'pass' ? 'success' : s.action === 'reject' ? 'error' : 'default'}
                      style={{ marginInlineEnd: 0 }}
                      data-testid="audit-step-action"
                    >
                      {actionText(s.action)}
                    </Tag>
                    <span style={{ color: '#606266' }} data-testid="audit-step-user">
                      {s.userName}
                    </span>
                    <span style={{ color: '#909399', fontSize: 12, marginInlineStart: 'auto' }}>
                      {formatDateTime(s.time)}
                    </span>
                  </div>
                  {s.suggestion ? (
                    <div
                      data-testid="audit-step-suggestion"
                      style={{
                        marginTop: 4,
                        padding: '4px 8px',
                        background: '#f7f8fa',
                        borderRadius: 4,
                        color: '#303133',
                        whiteSpace: 'pre-wrap',
                      }}
                    >
                      审核建议：{s.suggestion}
                    </div>
                  ) : null}
                </div>
              ),
            })),
            ...(pendingLevel > 0
              ? [
                  {
                    key: 'pending',
                    color: 'gray',
                    content: (
                      <span style={{ color: '#909399' }} data-testid="audit-pending">
                        待{levelText(pendingLevel)}
                      </span>
                    ),
                  },
                ]
              : []),
          ]}
        />
      </NotStarted>
    </div>
  );
}
