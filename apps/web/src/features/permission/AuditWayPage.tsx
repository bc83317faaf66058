import { SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { AUDIT_WAYS, type AuditWay } from '@ks/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Radio, Skeleton, Space, Steps, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { auditConfigKey, auditConfigQuery, saveAuditWays } from '../../api/permission';
import { isApiError, reportApiError } from '../../api/request';
import { ForbiddenCard, isForbidden, LoadError, PageFrame, SaveErrorAlert } from '../../components/admin';
import { AUDIT_LEVEL_PATH, CONFIG_SECTION, nodePageHref } from '../../lib/paths';
import { NodeScope, reviewerCount, saveErrorLines, useNodeTarget, useRoleOptions, userName, WAY_HINTS } from './audit';
import { useUserDirectory } from './shared';

type Ways = Record<number, AuditWay>;

function WaysEditor({ gnCoding }: { gnCoding: string }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const config = useQuery(auditConfigQuery(gnCoding));
  const roleOptions = useRoleOptions();
  const directory = useUserDirectory({ silent: true, prime: true });
  const base = useMemo<Ways | null>(
    () => (config.data ? Object.fromEntries(config.data.levels.map((l) => [l.level, l.way])) : null),
    [config.data],
  );
  const [edits, setEdits] = useState<Ways | null>(null);
  const [serverError, setServerError] = useState<string[]>([]);
  const ways = edits ?? base ?? {};
  const levels = config.data?.levels ?? [];
  const dirty = Boolean(edits && base && levels.some((l) => edits[l.level] !== base[l.level]));

  const save = useMutation({
    mutationFn: () => saveAuditWays({ gnCoding, ways: levels.map((l) => ({ level: l.level, way: ways[l.level] })) }),
    onSuccess: (saved) => {
      queryClient.setQueryData(auditConfigKey(gnCoding), saved);
      setEdits(null);
      setServerError([]);
      void message.success('保存成功');
    },
    onError: (err) => {
      setServerError(saveErrorLines(err));
      if (isApiError(err) && err.status !== 400) reportApiError(err);
    },
  });

  if (config.isError) {
    return isForbidden(config.error) ? (
      <ForbiddenCard reason="仅管理员和开发者可配置审核方式" />
    ) : (
      <LoadError error={config.error} what="审核方式" />
    );
  }
  if (config.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;

  const levelLink = `/system/auditLevel?gnCoding=${encodeURIComponent(gnCoding)}`;
  if (levels.length === 0) {
    return (
      <Empty description="该节点尚未设置审核级别" data-testid="ways-empty">
        <Link to={levelLink}>去设置审核级别</Link>
      </Empty>
    );
  }

  return (
    <div data-testid="ways-editor">
      <Typography.Paragraph type="secondary">
        为每一级审核选择审核方式；级别与审核人在<Link to={levelLink}>「审核级别」</Link>中设置。
      </Typography.Paragraph>
      <SaveErrorAlert lines={serverError} testId="audit-save-error" />
      <Steps
        orientation="vertical"
        current={-1}
        data-testid="ways-steps"
        items={levels.map((l) => {
          const way = ways[l.level] ?? l.way;
          const single = reviewerCount(l) === 1;
          const reviewers = [
            ...l.reviewerRoles.map((c) => `角色 ${roleOptions.label(c)}`),
            ...l.reviewerUserIds.map((id) => userName(directory, id)),
          ];
          return {
            status: 'process' as const,
            title: (
              <Space>
                <span>
                  第 {l.level} 级：{l.name}
                </span>
                {edits && base && edits[l.level] !== base[l.level] ? <Tag color="warning">已修改</Tag> : null}
              </Space>
            ),
            content: (
              <div style={{ padding: '4px 0 16px' }} data-testid={`way-level-${l.level}`}>
                <div style={{ marginBottom: 8 }}>
                  <Typography.Text type="secondary">审核人：{reviewers.join('、') || '未指定'}</Typography.Text>
                </div>
                <Radio.Group
                  value={way}
                  disabled={save.isPending}
                  onChange={(e) => {
                    setServerError([]);
                    setEdits({ ...ways, [l.level]: e.target.value as AuditWay });
                  }}
                  options={AUDIT_WAYS.map((w) => ({
                    value: w.value,
                    label: w.label,
                    disabled: w.value === 'single' && !single,
                    title: w.value === 'single' && !single ? '单人审核需要本级恰好一个审核人或角色' : undefined,
                  }))}
                  data-testid={`way-${l.level}`}
                  aria-label={`第 ${l.level} 级审核方式`}
                />
                <div style={{ marginTop: 6 }}>
                  <Typography.Text type="secondary" data-testid={`way-hint-${l.level}`}>
                    {WAY_HINTS[way]}
                  </Typography.Text>
                </div>
              </div>
            ),
          };
        })}
      />
      <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
        <Button
          icon={<UndoOutlined />}
          onClick={() => {
            setEdits(null);
            setServerError([]);
          }}
          disabled={!dirty || save.isPending}
          data-testid="ways-reset"
        >
          撤销修改
        </Button>
        <Button
          type="primary"
          icon={<SaveOutlined />}
          onClick={() => save.mutate()}
          loading={save.isPending}
          disabled={!dirty}
          data-testid="save-ways"
        >
          保存
        </Button>
      </Space>
    </div>
  );
}

/**
 * 审核方式 `/system/auditWay?gnCoding=…` (administrators and developers): the way of each audit level of a node —
 * 单人审核, 会签 (all pass) or 或签 (any one passes) — shown as the flow of the levels.
 */
export default function AuditWayPage() {
  const { target, pick } = useNodeTarget();
  return (
    <PageFrame section={CONFIG_SECTION} title="审核方式">
      <Card
        title="审核方式"
        extra={
          target.gnCoding ? (
            <Link
              to={nodePageHref(AUDIT_LEVEL_PATH, target.gnCoding, target.systemCoding)}
              data-testid="to-audit-level"
            >
              设置审核级别
            </Link>
          ) : null
        }
      >
        <NodeScope target={target} pick={pick} what="审核方式">
          {(gnCoding) => <WaysEditor key={gnCoding} gnCoding={gnCoding} />}
        </NodeScope>
      </Card>
    </PageFrame>
  );
}
