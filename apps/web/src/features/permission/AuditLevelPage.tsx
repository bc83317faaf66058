import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  PlusOutlined,
  SaveOutlined,
  UndoOutlined,
} from '@ant-design/icons';
import { type AuditLevel, type AuditWay, MAX_AUDIT_LEVELS } from '@ks/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, Form, Input, Select, Skeleton, Space, Tag, Tooltip, Typography } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { type AuditConfig, auditConfigKey, auditConfigQuery, saveAuditLevels } from '../../api/permission';
import { isApiError, reportApiError } from '../../api/request';
import { ForbiddenCard, isForbidden, LoadError, PageFrame, SaveErrorAlert } from '../../components/admin';
import { AUDIT_WAY_PATH, CONFIG_SECTION, nodePageHref } from '../../lib/paths';
import {
  AUDIT_LEVEL_NAME_MAX,
  AUDIT_MESSAGES,
  levelErrors,
  NodeScope,
  saveErrorLines,
  useNodeTarget,
  useRoleOptions,
  wayLabel,
} from './audit';
import { UserSelect, useUserDirectory } from './shared';

interface DraftLevel {
  key: string;
  name: string;
  way: AuditWay;
  reviewerRoles: string[];
  reviewerUserIds: string[];
}

const toDrafts = (levels: readonly AuditLevel[]): DraftLevel[] =>
  levels.map((l) => ({
    key: `saved-${l.level}`,
    name: l.name,
    way: l.way,
    reviewerRoles: [...l.reviewerRoles],
    reviewerUserIds: [...l.reviewerUserIds],
  }));

/** The body's levels: numbered 1..n in their order. */
export const toLevels = (drafts: readonly DraftLevel[]): AuditLevel[] =>
  drafts.map((d, i) => ({
    level: i + 1,
    name: d.name.trim(),
    way: d.way,
    reviewerRoles: d.reviewerRoles,
    reviewerUserIds: d.reviewerUserIds,
  }));

const sameLevels = (a: readonly DraftLevel[], b: readonly DraftLevel[]) =>
  JSON.stringify(toLevels(a)) === JSON.stringify(toLevels(b));

export const NO_REVIEWER_WARNING =
  '该级暂无可用的审核人：所选角色没有在用的成员，也没有指定可用的审核人。业务提交到该级时将被拒绝，请为角色添加成员或指定审核人。';

const sameReviewers = (a: { reviewerRoles: string[]; reviewerUserIds: string[] }, b: DraftLevel) =>
  JSON.stringify([[...a.reviewerRoles].sort(), [...a.reviewerUserIds].sort()]) ===
  JSON.stringify([[...b.reviewerRoles].sort(), [...b.reviewerUserIds].sort()]);

/**
 * Does a level have nobody to review it? A saved level whose reviewers are unchanged: the server's count of active
 * accounts that may decide it. An edited or new one: named users count, else the chosen roles' members (when the role
 * list is known). A level without any reviewer at all is the rule error's, not this warning's.
 */
export function lacksReviewers(
  draft: DraftLevel,
  saved: AuditConfig['levels'],
  memberCount: (code: string) => number | undefined,
): boolean {
  if (!draft.reviewerRoles.length && !draft.reviewerUserIds.length) return false;
  const before = draft.key.startsWith('saved-') ? saved.find((l) => `saved-${l.level}` === draft.key) : undefined;
  if (before && before.reviewerCount !== undefined && sameReviewers(before, draft)) return before.reviewerCount === 0;
  if (draft.reviewerUserIds.length) return false;
  const counts = draft.reviewerRoles.map(memberCount);
  return counts.every((n) => n === 0);
}

function LevelsEditor({ gnCoding }: { gnCoding: string }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const config = useQuery(auditConfigQuery(gnCoding));
  const roleOptions = useRoleOptions();
  const directory = useUserDirectory({ silent: true, prime: true });
  const base = useMemo(() => (config.data ? toDrafts(config.data.levels) : null), [config.data]);
  const [edits, setEdits] = useState<DraftLevel[] | null>(null);
  const [tried, setTried] = useState(false);
  const [serverError, setServerError] = useState<string[]>([]);
  const counter = useRef(0);

  const levels = edits ?? base ?? [];
  const dirty = Boolean(edits && base && !sameLevels(edits, base));
  const errors = levelErrors(levels);
  const hasErrors = errors.some((e) => e.length > 0);

  const change = (fn: (ls: DraftLevel[]) => DraftLevel[]) => {
    setServerError([]);
    setEdits((prev) => fn(prev ?? base ?? []));
  };
  const patch = (i: number, p: Partial<DraftLevel>) => change((ls) => ls.map((l, j) => (j === i ? { ...l, ...p } : l)));
  const move = (i: number, d: -1 | 1) =>
    change((ls) => {
      const next = [...ls];
      const [it] = next.splice(i, 1);
      next.splice(i + d, 0, it);
      return next;
    });
  const add = () =>
    change((ls) =>
      ls.length >= MAX_AUDIT_LEVELS
        ? ls
        : [...ls, { key: `new-${++counter.current}`, name: '', way: 'any', reviewerRoles: [], reviewerUserIds: [] }],
    );

  const save = useMutation({
    mutationFn: (body: AuditConfig) => saveAuditLevels(body),
    onSuccess: (saved) => {
      queryClient.setQueryData(auditConfigKey(gnCoding), saved);
      setEdits(null);
      setTried(false);
      setServerError([]);
      void message.success('保存成功');
    },
    onError: (err) => {
      setServerError(saveErrorLines(err));
      // a 400 is the page's to show; anything else goes to the usual prompt as well
      if (isApiError(err) && err.status !== 400) reportApiError(err);
    },
  });

  const submit = () => {
    setTried(true);
    if (hasErrors) {
      void message.error('请先修正审核级别中的错误');
      return;
    }
    save.mutate({ gnCoding, levels: toLevels(levels) });
  };

  if (config.isError) {
    return isForbidden(config.error) ? (
      <ForbiddenCard reason="仅管理员和开发者可配置审核级别" />
    ) : (
      <LoadError error={config.error} what="审核级别" />
    );
  }
  if (config.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;

  const roleSelectOptions = [
    ...(roleOptions.roles.data ?? []).map((r) => ({ value: r.code, label: `${r.name}（${r.code}）` })),
    // saved codes stay labelled even when the list is unavailable
    ...[...new Set(levels.flatMap((l) => l.reviewerRoles))]
      .filter((c) => !roleOptions.byCode.has(c))
      .map((c) => ({ value: c, label: c })),
  ];

  return (
    <div data-testid="levels-editor">
      <Typography.Paragraph type="secondary">
        业务提交后按级别顺序依次审核，最多 {MAX_AUDIT_LEVELS} 级；每一级需指定审核角色或审核人。各级的审核方式在
        <Link to={`/system/auditWay?gnCoding=${encodeURIComponent(gnCoding)}`}>「审核方式」</Link>中设置。
        没有审核级别表示该节点的业务无需审核。
      </Typography.Paragraph>
      {roleOptions.forbidden ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title="角色列表仅管理员可查看：可直接输入角色编码（如 admin、user）后回车。"
          data-testid="roles-unavailable"
        />
      ) : null}
      {directory.error ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title={`无法查询用户：${directory.error}`}
          data-testid="users-unavailable"
        />
      ) : null}
      <SaveErrorAlert lines={serverError} testId="audit-save-error" />
      {levels.length === 0 ? (
        <Empty description="暂无审核级别，该节点的业务无需审核" data-testid="levels-empty" />
      ) : (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          {levels.map((l, i) => {
            const errs = tried ? errors[i] : [];
            return (
              <Card
                key={l.key}
                size="small"
                data-testid={`level-${i + 1}`}
                title={
                  <Space>
                    <span>第 {i + 1} 级</span>
                    <Tooltip title="审核方式在「审核方式」中设置">
                      <Tag color="blue">{wayLabel(l.way)}</Tag>
                    </Tooltip>
                  </Space>
                }
                extra={
                  <Space size={0}>
                    <Tooltip title="上移">
                      <Button
                        type="text"
                        size="small"
                        icon={<ArrowUpOutlined />}
                        disabled={i === 0 || save.isPending}
                        onClick={() => move(i, -1)}
                        aria-label={`第 ${i + 1} 级上移`}
                        data-testid={`level-up-${i + 1}`}
                      />
                    </Tooltip>
                    <Tooltip title="下移">
                      <Button
                        type="text"
                        size="small"
                        icon={<ArrowDownOutlined />}
                        disabled={i === levels.length - 1 || save.isPending}
                        onClick={() => move(i, 1)}
                        aria-label={`第 ${i + 1} 级下移`}
                        data-testid={`level-down-${i + 1}`}
                      />
                    </Tooltip>
                    <Tooltip title="删除该级">
                      <Button
                        type="text"
                        size="small"
                        danger
                        icon={<DeleteOutlined />}
                        disabled={save.isPending}
                        onClick={() => change((ls) => ls.filter((_, j) => j !== i))}
                        aria-label={`删除第 ${i + 1} 级`}
                        data-testid={`level-remove-${i + 1}`}
                      />
                    </Tooltip>
                  </Space>
                }
              >
                <Form layout="vertical" component="div" disabled={save.isPending}>
                  <Space wrap align="start" size={[16, 0]}>
                    <Form.Item label="级别名称" required style={{ width: 220, marginBottom: 8 }}>
                      <Input
                        value={l.name}
                        maxLength={AUDIT_LEVEL_NAME_MAX}
                        placeholder="如 初审、复审"
                        onChange={(e) => patch(i, { name: e.target.value })}
                        data-testid={`level-name-${i + 1}`}
                      />
                    </Form.Item>
                    <Form.Item label="审核角色" style={{ width: 320, marginBottom: 8 }}>
                      <Select<string[]>
                        mode={roleOptions.forbidden ? 'tags' : 'multiple'}
                        allowClear
                        showSearch={{ optionFilterProp: 'label' }}
                        placeholder="选择审核角色"
                        value={l.reviewerRoles}
                        onChange={(v) => patch(i, { reviewerRoles: v })}
                        options={roleSelectOptions}
                        loading={roleOptions.roles.isPending}
                        notFoundContent="暂无数据"
                        data-testid={`level-roles-${i + 1}`}
                        aria-label={`第 ${i + 1} 级审核角色`}
                      />
                    </Form.Item>
                    <Form.Item label="审核人" style={{ width: 380, marginBottom: 8 }}>
                      <UserSelect
                        directory={directory}
                        multiple
                        value={l.reviewerUserIds}
                        onChange={(v) => patch(i, { reviewerUserIds: Array.isArray(v) ? v : [] })}
                        placeholder="输入账号或姓名查找审核人"
                        width="100%"
                        testId={`level-users-${i + 1}`}
                      />
                    </Form.Item>
                  </Space>
                </Form>
                {lacksReviewers(l, config.data.levels, (code) => roleOptions.byCode.get(code)?.memberCount) ? (
                  <Alert
                    type="warning"
                    showIcon
                    style={{ marginTop: 4 }}
                    title={NO_REVIEWER_WARNING}
                    data-testid={`level-no-reviewer-${i + 1}`}
                  />
                ) : null}
                {errs.length ? (
                  <div data-testid={`level-error-${i + 1}`}>
                    <Typography.Text type="danger">{errs.join('；')}</Typography.Text>
                    {l.way === 'single' && errs.includes(AUDIT_MESSAGES.singleOne) ? (
                      <Typography.Text type="secondary">
                        （只保留一个审核人或角色，或在「审核方式」中改为会签、或签）
                      </Typography.Text>
                    ) : null}
                  </div>
                ) : null}
              </Card>
            );
          })}
        </Space>
      )}
      <Space style={{ marginTop: 16, width: '100%', justifyContent: 'space-between' }} wrap>
        <Button
          icon={<PlusOutlined />}
          onClick={add}
          disabled={levels.length >= MAX_AUDIT_LEVELS || save.isPending}
          data-testid="level-add"
        >
          新增审核级别{levels.length >= MAX_AUDIT_LEVELS ? `（最多 ${MAX_AUDIT_LEVELS} 级）` : ''}
        </Button>
        <Space>
          {dirty ? <Tag color="warning">有未保存的修改</Tag> : null}
          <Button
            icon={<UndoOutlined />}
            onClick={() => {
              setEdits(null);
              setTried(false);
              setServerError([]);
            }}
            disabled={!dirty || save.isPending}
            data-testid="levels-reset"
          >
            撤销修改
          </Button>
          <Button
            type="primary"
            icon={<SaveOutlined />}
            onClick={submit}
            loading={save.isPending}
            disabled={!dirty}
            data-testid="save-levels"
          >
            保存
          </Button>
        </Space>
      </Space>
    </div>
  );
}

/**
 * 审核级别 `/system/auditLevel?gnCoding=…` (administrators and developers): the ordered audit levels of a node, each
 * with a name, reviewer roles and reviewer users. Without a node in the address, a system and node are chosen first.
 */
export default function AuditLevelPage() {
  const { target, pick } = useNodeTarget();
  return (
    <PageFrame section={CONFIG_SECTION} title="审核级别">
      <Card
        title="审核级别"
        extra={
          target.gnCoding ? (
            <Link to={nodePageHref(AUDIT_WAY_PATH, target.gnCoding, target.systemCoding)} data-testid="to-audit-way">
              设置审核方式
            </Link>
          ) : null
        }
      >
        <NodeScope target={target} pick={pick} what="审核级别">
          {(gnCoding) => <LevelsEditor key={gnCoding} gnCoding={gnCoding} />}
        </NodeScope>
      </Card>
    </PageFrame>
  );
}
