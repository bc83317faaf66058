import {
  EVAL_ANOMALY_LABELS,
  MONITOR_STAGE_LABELS,
  MONITOR_VERDICT_LABELS,
  MONITOR_VERDICTS,
  type MonitorFinding,
  type MonitorVerdict,
  type MonitorView,
} from '@ks/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Descriptions,
  Drawer,
  Empty,
  Form,
  Input,
  List,
  Popconfirm,
  Radio,
  Select,
  Space,
  Spin,
  Tag,
  Timeline,
  Tooltip,
  Typography,
} from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  MONITOR_KEY,
  monitorAssign,
  monitorAudit,
  monitorPublish,
  monitorRevoke,
  monitorViewKey,
  monitorViewQuery,
} from '../../api/monitor';
import { FormDialog, LoadFailure, textRules } from '../../components/admin';
import { formatDateTime } from '../../lib/format';
import { evalRoomHref, openingHallHref } from '../../lib/paths';
import { TradeProgress } from '../evaluation';

/**
 * A finding: its verdict, opinion, author and time; 已发布 once issued to the parties, else 发布 for whoever may issue
 * it (its author, an administrator).
 */
function FindingText({
  f,
  canPublish,
  onPublish,
  publishing,
}: {
  f: MonitorFinding;
  canPublish: boolean;
  onPublish: () => void;
  publishing: boolean;
}) {
  return (
    <div data-testid="monitor-finding">
      <Tag color={f.verdict === 'rectify' ? 'error' : 'success'}>{MONITOR_VERDICT_LABELS[f.verdict]}</Tag>
      {f.opinion}
      <Typography.Text type="secondary" style={{ marginInlineStart: 8, fontSize: 12 }}>
        {f.byName} {formatDateTime(f.at)}
      </Typography.Text>
      {f.publishedAt ? (
        <Tooltip title={`${f.publishedByName ?? ''} ${formatDateTime(f.publishedAt)} 发布，评标室可见`}>
          <Tag color="blue" style={{ marginInlineStart: 8 }} data-testid="monitor-finding-published">
            已发布
          </Tag>
        </Tooltip>
      ) : canPublish ? (
        <Popconfirm
          title="发布该监督意见？"
          description="发布后在评标室向招标人、招标代理和评标委员会公开，并通知项目方，不能撤回。"
          okText="发布"
          cancelText="取消"
          onConfirm={onPublish}
        >
          <Button size="small" type="link" loading={publishing} data-testid="monitor-publish">
            发布
          </Button>
        </Popconfirm>
      ) : (
        <Tag style={{ marginInlineStart: 8 }}>未发布</Tag>
      )}
    </div>
  );
}

/** What a dialog of the drawer is doing: auditing one anomaly (or the whole section), assigning, revoking. */
type Dialog = { kind: 'audit'; key: string | null; text: string | null } | { kind: 'assign' } | { kind: 'revoke' };

/**
 * One section's supervision: where it stands, its anomalies with their findings (核查 for those without), findings on
 * the whole section, and who answers for it (指派 / 撤回指派, with the history).
 */
export function MonitorDrawer({ sectionId, onClose }: { sectionId: string; onClose: () => void }) {
  const q = useQuery(monitorViewQuery(sectionId));
  const qc = useQueryClient();
  const { message } = App.useApp();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const v = q.data;
  const saved = (next: MonitorView) => {
    qc.setQueryData(monitorViewKey(sectionId), next);
    void qc.invalidateQueries({ queryKey: [...MONITOR_KEY, 'list'] });
    setDialog(null);
  };
  const current = v?.row.supervisor ?? null;
  const publish = useMutation({
    mutationFn: (id: string) => monitorPublish(sectionId, id),
    onSuccess: (next) => {
      saved(next);
      void message.success('监督意见已发布');
    },
  });
  const findingOf = (f: MonitorFinding) => (
    <FindingText
      f={f}
      canPublish={v?.actions.publish.includes(f.id) ?? false}
      onPublish={() => publish.mutate(f.id)}
      publishing={publish.isPending && publish.variables === f.id}
    />
  );
  return (
    <Drawer
      open={sectionId.length > 0}
      onClose={onClose}
      size={920}
      destroyOnHidden
      title={v ? `${v.row.projectName} ${v.row.code} ${v.row.name}` : '监督详情'}
      data-testid="monitor-drawer"
      extra={
        v ? (
          <Space>
            <Link to={openingHallHref(sectionId)}>开标大厅</Link>
            {v.row.evaluationStatus !== 'none' ? <Link to={evalRoomHref(sectionId)}>评标室</Link> : null}
          </Space>
        ) : null
      }
    >
      {q.error ? (
        <LoadFailure error={q.error} what="监督详情" />
      ) : !v ? (
        <Spin />
      ) : (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Descriptions size="small" bordered column={2}>
            <Descriptions.Item label="项目编号">{v.row.projectNo}</Descriptions.Item>
            <Descriptions.Item label="开标时间">{formatDateTime(v.row.bidDeadline)}</Descriptions.Item>
            <Descriptions.Item label="阶段">{MONITOR_STAGE_LABELS[v.row.stage]}</Descriptions.Item>
            <Descriptions.Item label="投标文件">{v.row.bids} 份</Descriptions.Item>
            <Descriptions.Item label="监督人员">
              <Space>
                <span data-testid="monitor-current">{current ? current.userName : '未指派'}</span>
                {v.actions.assign ? (
                  <Button size="small" onClick={() => setDialog({ kind: 'assign' })} data-testid="monitor-assign">
                    {current ? '改派' : '指派'}
                  </Button>
                ) : null}
                {v.actions.revoke ? (
                  <Button
                    size="small"
                    danger
                    onClick={() => setDialog({ kind: 'revoke' })}
                    data-testid="monitor-revoke"
                  >
                    撤回指派
                  </Button>
                ) : null}
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label="最近动态">
              {v.row.lastEventAt ? formatDateTime(v.row.lastEventAt) : '—'}
            </Descriptions.Item>
          </Descriptions>

          <Card size="small" title="交易进度">
            <TradeProgress sectionId={sectionId} />
          </Card>

          {!v.actions.audit ? (
            <Alert
              type="info"
              showIcon
              title={
                current
                  ? `该标段由 ${current.userName} 负责监督，核查意见由负责人或管理员记录`
                  : '该标段尚未指派监督人员：指派后由负责人记录核查意见'
              }
            />
          ) : null}

          <Card
            size="small"
            title={`异常提示（${v.anomalies.length}）`}
            extra={
              v.actions.audit ? (
                <Button
                  size="small"
                  onClick={() => setDialog({ kind: 'audit', key: null, text: null })}
                  data-testid="monitor-audit-section"
                >
                  记录整体核查意见
                </Button>
              ) : null
            }
          >
            {v.anomalies.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无异常" />
            ) : (
              <List
                size="small"
                dataSource={v.anomalies}
                data-testid="monitor-anomalies"
                renderItem={(a) => (
                  <List.Item
                    data-testid="monitor-anomaly"
                    actions={
                      !a.finding && v.actions.audit
                        ? [
                            <Button
                              key="audit"
                              size="small"
                              type="primary"
                              onClick={() => setDialog({ kind: 'audit', key: a.key, text: a.text })}
                              data-testid="monitor-audit"
                            >
                              核查
                            </Button>,
                          ]
                        : []
                    }
                  >
                    <List.Item.Meta
                      title={
                        <Space>
                          <Tag color="warning">{EVAL_ANOMALY_LABELS[a.kind]}</Tag>
                          <span>{a.text}</span>
                        </Space>
                      }
                      description={
                        a.finding ? (
                          findingOf(a.finding)
                        ) : (
                          <Typography.Text type="danger">
                            待核查{a.at ? `（${formatDateTime(a.at)}）` : ''}
                          </Typography.Text>
                        )
                      }
                    />
                  </List.Item>
                )}
              />
            )}
          </Card>

          {v.findings.length ? (
            <Card size="small" title="整体核查意见">
              <List
                size="small"
                dataSource={v.findings}
                renderItem={(f) => (
                  <List.Item>
                    <Space orientation="vertical" size={2}>
                      {f.anomalyText ? <Typography.Text type="secondary">关于：{f.anomalyText}</Typography.Text> : null}
                      {findingOf(f)}
                    </Space>
                  </List.Item>
                )}
              />
            </Card>
          ) : null}

          <Card size="small" title="指派记录">
            {v.assignments.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="尚未指派" />
            ) : (
              <Timeline
                data-testid="monitor-assignments"
                items={v.assignments.map((a) => ({
                  color: a.revokedAt ? 'gray' : 'green',
                  content: (
                    <div>
                      {formatDateTime(a.assignedAt)} {a.assignedByName} 指派 <b>{a.supervisor.userName}</b>
                      {a.revokedAt ? (
                        <Typography.Text type="secondary">
                          ；{formatDateTime(a.revokedAt)} {a.revokedByName} 撤回：{a.revokeReason}
                        </Typography.Text>
                      ) : (
                        <Tag color="green" style={{ marginInlineStart: 8 }}>
                          当前负责
                        </Tag>
                      )}
                    </div>
                  ),
                }))}
              />
            )}
          </Card>

          <AuditDialog
            sectionId={sectionId}
            target={dialog?.kind === 'audit' ? dialog : null}
            onClose={() => setDialog(null)}
            onSaved={saved}
          />
          <FormDialog<{ userId: string }, MonitorView>
            open={dialog?.kind === 'assign'}
            title={current ? '改派监督人员' : '指派监督人员'}
            okText="指派"
            successText="已指派监督人员"
            testId="monitor-assign-ok"
            fields={['userId']}
            submit={(x) => monitorAssign({ sectionId, userId: x.userId })}
            onClose={() => setDialog(null)}
            onSaved={saved}
            intro={
              current ? (
                <Alert
                  type="warning"
                  showIcon
                  style={{ marginBottom: 12 }}
                  title={`改派后 ${current.userName} 的指派记为撤回`}
                />
              ) : undefined
            }
          >
            <Form.Item name="userId" label="监督人员" rules={[{ required: true, message: '请选择监督人员' }]}>
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                placeholder="具有监督查看权限的人员"
                options={v.candidates.map((u) => ({ value: u.id, label: u.userName }))}
                notFoundContent="没有具有监督查看权限的人员"
                data-testid="monitor-assign-user"
              />
            </Form.Item>
          </FormDialog>
          <FormDialog<{ reason: string }, MonitorView>
            open={dialog?.kind === 'revoke'}
            title="撤回监督指派"
            okText="撤回指派"
            okDanger
            successText="已撤回监督指派"
            testId="monitor-revoke-ok"
            fields={['reason']}
            submit={(x) => monitorRevoke({ sectionId, reason: x.reason })}
            onClose={() => setDialog(null)}
            onSaved={saved}
          >
            <Form.Item name="reason" label="撤回理由" rules={textRules('撤回理由', 4, 500)}>
              <Input.TextArea rows={3} maxLength={500} showCount data-testid="monitor-revoke-reason" />
            </Form.Item>
          </FormDialog>
        </Space>
      )}
    </Drawer>
  );
}

function AuditDialog({
  sectionId,
  target,
  onClose,
  onSaved,
}: {
  sectionId: string;
  target: { key: string | null; text: string | null } | null;
  onClose: () => void;
  onSaved: (v: MonitorView) => void;
}) {
  return (
    <FormDialog<{ verdict: MonitorVerdict; opinion: string }, MonitorView>
      open={target !== null}
      subject={target?.key}
      title={target?.key ? '核查异常' : '记录整体核查意见'}
      okText="记录核查意见"
      successText="核查意见已记录"
      testId="monitor-audit-ok"
      fields={['verdict', 'opinion']}
      values={() => ({ verdict: 'compliant' })}
      submit={(x) =>
        monitorAudit({
          sectionId,
          ...(target?.key ? { anomalyKey: target.key } : {}),
          verdict: x.verdict,
          opinion: x.opinion,
        })
      }
      onClose={onClose}
      onSaved={onSaved}
      intro={
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title={
            target?.text
              ? `异常：${target.text}`
              : '对标段的开标、评标过程整体记录监督意见；责令整改时通知项目的招标人、招标代理'
          }
        />
      }
    >
      <Form.Item name="verdict" label="核查结论" rules={[{ required: true, message: '请选择核查结论' }]}>
        <Radio.Group
          options={MONITOR_VERDICTS.map((x) => ({ value: x, label: MONITOR_VERDICT_LABELS[x] }))}
          data-testid="monitor-verdict"
        />
      </Form.Item>
      <Form.Item name="opinion" label="核查意见" rules={textRules('核查意见', 4, 1000)}>
        <Input.TextArea rows={4} maxLength={1000} showCount data-testid="monitor-opinion" />
      </Form.Item>
    </FormDialog>
  );
}
