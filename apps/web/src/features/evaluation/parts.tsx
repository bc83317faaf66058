import {
  EVAL_PANEL_LABELS,
  EVAL_STATUS_LABELS,
  type EvalMember,
  type EvalPanel,
  type EvalRoom,
  type EvalStatus,
  formatIn,
} from '@ks/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, type ButtonProps, Popconfirm, Tag } from 'antd';
import type { ReactNode } from 'react';
import { evalRoomKey, setRoom } from '../../api/evaluation';

/** Pieces shared by the evaluation pages (issue 17). */

export const SECTION = { title: '开评标' } as const;
export const TITLE = '评标';

export const ROLE_LABELS: Record<EvalRoom['role'], string> = { host: '主持', member: '评委', viewer: '查看' };

const STATUS_COLORS: Record<EvalStatus, string> = {
  none: 'default',
  signing: 'processing',
  scoring: 'orange',
  reporting: 'gold',
  done: 'success',
};

export function StatusTag({ status, testId }: { status: EvalStatus; testId?: string }) {
  return (
    <Tag color={STATUS_COLORS[status]} data-testid={testId} style={{ marginInlineEnd: 0 }}>
      {EVAL_STATUS_LABELS[status]}
    </Tag>
  );
}

/** An instant to the second in the trading centre's zone; '' for none. */
export const formatSeconds = (iso: string | null | undefined) => (iso ? formatIn(iso, 'YYYY-MM-DD HH:mm:ss') : '');

/** Two decimals, or — for none. */
export const points = (v: number | null | undefined) =>
  typeof v === 'number' && Number.isFinite(v) ? v.toFixed(2) : '—';

export const panelLabel = (p: EvalPanel) => EVAL_PANEL_LABELS[p];

/** The members who evaluate a panel. */
export const panelMembers = (room: EvalRoom, panel: EvalPanel): EvalMember[] =>
  room.members.filter((m) => m.panels.includes(panel));

export const chairOf = (room: EvalRoom) => room.members.find((m) => m.chair) ?? null;

/** The steps of the room, in the order of the left menu; `panel` for the sign-in and review steps. */
export const STEP_GROUPS = [
  {
    title: '评标准备',
    steps: [
      { key: 'bidBegin', label: '开始评标' },
      { key: 'bidSign', label: '资格组签到', panel: 'ZS' },
      { key: 'bidSignZj', label: '技术组签到', panel: 'JS' },
      { key: 'bidSignSw', label: '商务组签到', panel: 'SW' },
      { key: 'zjInfo', label: '评委信息与组长推选' },
    ],
  },
  {
    title: '评审',
    steps: [
      { key: 'bidDoc', label: '投标文件' },
      { key: 'bidMethod', label: '评标办法（资格）' },
      { key: 'bidMethodJs', label: '技术评分标准' },
      { key: 'bidMethodSw', label: '商务与价格分' },
      { key: 'bidReview', label: '资格与技术评审' },
      { key: 'bidReviewSw', label: '商务评审' },
    ],
  },
  {
    title: '结果',
    steps: [
      { key: 'bidResult', label: '评标结果' },
      { key: 'bidPublicity', label: '中标候选人公示与定标' },
      { key: 'bidOverview', label: '评标概览' },
    ],
  },
] as const;

export type StepKey = (typeof STEP_GROUPS)[number]['steps'][number]['key'];
export const STEP_KEYS: readonly StepKey[] = STEP_GROUPS.flatMap((g) => g.steps.map((s) => s.key));
export const isStepKey = (v: string | undefined): v is StepKey => STEP_KEYS.includes(v as StepKey);
export const stepLabel = (key: StepKey) =>
  STEP_GROUPS.flatMap((g) => [...g.steps]).find((s) => s.key === key)?.label ?? key;

/**
 * A step of the room: its answer is the room now (into the room's query, and a success message); a refusal (shown by
 * the request client) reloads the room.
 */
export function useRoomAction<T>(
  sectionId: string,
  run: (v: T) => Promise<EvalRoom>,
  done: string,
  after?: (room: EvalRoom) => void,
) {
  const qc = useQueryClient();
  const { message } = App.useApp();
  return useMutation({
    mutationFn: run,
    onSuccess: (room) => {
      setRoom(qc, room);
      void message.success(done);
      after?.(room);
    },
    onError: () => void qc.invalidateQueries({ queryKey: evalRoomKey(sectionId) }),
  });
}

export const testIdProps = (id: string) => ({ 'data-testid': id }) as ButtonProps;

/** A button that asks 确定 / 取消 first (irreversible steps). */
export function ConfirmButton({
  title,
  description,
  onConfirm,
  loading,
  testId,
  icon,
  danger,
  disabled,
  size,
  type = 'default',
  children,
}: {
  title: ReactNode;
  description?: ReactNode;
  onConfirm: () => Promise<unknown>;
  loading: boolean;
  testId: string;
  icon?: ReactNode;
  danger?: boolean;
  disabled?: boolean;
  size?: 'small' | 'middle';
  type?: 'primary' | 'default' | 'link';
  children: ReactNode;
}) {
  return (
    <Popconfirm
      title={title}
      description={description}
      okText="确定"
      cancelText="取消"
      disabled={disabled}
      okButtonProps={{ danger, 'data-testid': 'confirm-ok' } as ButtonProps}
      onConfirm={() => onConfirm().catch(() => undefined)}
    >
      <Button
        type={type}
        size={size}
        danger={danger}
        icon={icon}
        loading={loading}
        disabled={disabled}
        data-testid={testId}
      >
        {children}
      </Button>
    </Popconfirm>
  );
}
