import { AUDIT_WAYS, type AuditLevel, type AuditWay, type Role } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Empty, Space } from 'antd';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { call } from '../../api/call';
import { roleOptionsQuery } from '../../api/permission';
import { isApiError } from '../../api/request';
import { NodeSelector, type NodeTarget } from '../../components/admin';
import { type UserDirectory, userLabel } from './shared';

/** Messages of the audit level rules (the server's schema uses the same words). */
export const AUDIT_MESSAGES = {
  nameRequired: '请输入审核级别名称',
  nameMax: '最多 30 个字符',
  reviewerRequired: '每一级审核都需要指定审核角色或审核人',
  singleOne: '单人审核只能指定一个审核人或角色',
} as const;
export const AUDIT_LEVEL_NAME_MAX = 30;

/** One line on what each way means. */
export const WAY_HINTS: Record<AuditWay, string> = {
  single: '单人审核：由唯一指定的审核人（或角色）审核，审核通过即进入下一级。',
  all: '会签：本级全部审核人都审核通过才进入下一级，任一人驳回即驳回。',
  any: '或签：本级任一审核人审核通过即进入下一级。',
};

export const wayLabel = (way: AuditWay) => AUDIT_WAYS.find((w) => w.value === way)?.label ?? way;

export const reviewerCount = (l: Pick<AuditLevel, 'reviewerRoles' | 'reviewerUserIds'>) =>
  l.reviewerRoles.length + l.reviewerUserIds.length;

/** The rule violations of each level (empty lists when all is well). */
export function levelErrors(levels: readonly Pick<AuditLevel, 'name' | 'way' | 'reviewerRoles' | 'reviewerUserIds'>[]) {
  return levels.map((l) => {
    const errors: string[] = [];
    const name = l.name.trim();
    if (!name) errors.push(AUDIT_MESSAGES.nameRequired);
    else if (name.length > AUDIT_LEVEL_NAME_MAX) errors.push(AUDIT_MESSAGES.nameMax);
    const n = reviewerCount(l);
    if (n === 0) errors.push(AUDIT_MESSAGES.reviewerRequired);
    else if (l.way === 'single' && n !== 1) errors.push(AUDIT_MESSAGES.singleOne);
    return errors;
  });
}

/** The lines of a failed save: the message, then any field messages that say something else. */
export function saveErrorLines(err: unknown): string[] {
  if (!isApiError(err)) return [err instanceof Error ? err.message : String(err)];
  const fe = (err.data as { fieldErrors?: Record<string, string[] | string> } | null)?.fieldErrors ?? {};
  const extra = Object.values(fe)
    .flatMap((v) => (Array.isArray(v) ? v : [String(v)]))
    .filter((m) => m !== err.message);
  return [err.message, ...new Set(extra)];
}

/** The node of the page from ?systemCoding&gnCoding, and a picker that writes the query string. */
export function useNodeTarget() {
  const [params, setParams] = useSearchParams();
  const gnCoding = params.get('gnCoding') || null;
  const given = params.get('systemCoding') || null;
  // arriving with a node only (e.g. from a link): its system comes from the node's configuration
  const preview = useQuery({
    queryKey: ['audit', 'nodeSystem', gnCoding],
    queryFn: () =>
      call('nodePreviews', {
        params: { gnCoding: gnCoding ?? '' },
        // only a convenience: without it the system picker stays empty
        silent: true,
      }),
    enabled: Boolean(gnCoding && !given),
    retry: false,
  });
  const target: NodeTarget = { systemCoding: given ?? preview.data?.node.systemCoding ?? null, gnCoding };
  const pick = (next: NodeTarget) =>
    setParams((prev) => {
      const q = new URLSearchParams(prev);
      for (const [k, v] of Object.entries(next)) {
        if (v) q.set(k, v);
        else q.delete(k);
      }
      return q;
    });
  return { target, pick };
}

/** System + node picker above an editor that needs a node. */
export function NodeScope({
  target,
  pick,
  what,
  children,
}: {
  target: NodeTarget;
  pick: (next: NodeTarget) => void;
  what: string;
  children: (gnCoding: string) => ReactNode;
}) {
  return (
    <>
      <Space wrap style={{ marginBottom: 16 }}>
        <span>节点</span>
        <NodeSelector
          systemCoding={target.systemCoding}
          gnCoding={target.gnCoding}
          onChange={pick}
          testId="node-picker"
          testIds={{ system: 'system-select', node: 'node-select' }}
        />
      </Space>
      {target.gnCoding ? (
        children(target.gnCoding)
      ) : (
        <Empty description={`请选择要配置${what}的系统和节点`} data-testid="node-empty" />
      )}
    </>
  );
}

/** Role options (administrators only; others may still type role codes). */
export function useRoleOptions() {
  const roles = useQuery(roleOptionsQuery);
  const byCode = new Map<string, Role>((roles.data ?? []).map((r) => [r.code, r]));
  return {
    roles,
    byCode,
    forbidden: roles.isError,
    label: (code: string) => {
      const r = byCode.get(code);
      return r ? `${r.name}（${r.code}）` : code;
    },
  };
}

export const userName = (directory: UserDirectory, id: string) => {
  const u = directory.known.get(id);
  return u ? userLabel(u) : `用户 ${id.slice(0, 8)}`;
};
