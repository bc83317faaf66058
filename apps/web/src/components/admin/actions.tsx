import { useMutation } from '@tanstack/react-query';
import { App, Button, type ButtonProps, Popconfirm, Space, Tooltip } from 'antd';
import type { ReactNode } from 'react';

/** The 操作 cell of a row: its link buttons side by side. */
export function RowActions({ children, wrap = false }: { children: ReactNode; wrap?: boolean }) {
  return (
    <Space size={0} wrap={wrap}>
      {children}
    </Space>
  );
}

/** One link button of the 操作 column; a disabled one may say why in a tooltip. */
export function ActionLink({
  onClick,
  testId,
  danger,
  disabled,
  why,
  children,
}: {
  onClick?: () => void;
  testId: string;
  danger?: boolean;
  disabled?: boolean;
  /** shown on hover while disabled */
  why?: string;
  children: ReactNode;
}) {
  const button = (
    <Button type="link" size="small" danger={danger} disabled={disabled} onClick={onClick} data-testid={testId}>
      {children}
    </Button>
  );
  return disabled && why ? <Tooltip title={why}>{button}</Tooltip> : button;
}

/**
 * A link button that asks first (Popconfirm 确定 / 取消), then runs the change: a success message and `onDone`
 * (refresh the list) when it succeeds; `onDone` as well when it fails, after the request client has shown the
 * server's message, so the list shows what is true now.
 */
export function ConfirmAction({
  title,
  description,
  run,
  successText,
  onDone,
  danger = false,
  testId,
  children,
}: {
  title: ReactNode;
  description?: ReactNode;
  run: () => Promise<unknown>;
  successText: string;
  onDone?: () => void;
  danger?: boolean;
  testId: string;
  children: ReactNode;
}) {
  const { message } = App.useApp();
  const mutation = useMutation({
    mutationFn: run,
    onSuccess: () => {
      void message.success(successText);
      onDone?.();
    },
    onError: () => onDone?.(),
  });
  return (
    <Popconfirm
      title={title}
      description={description}
      okText="确定"
      cancelText="取消"
      okButtonProps={{ danger, 'data-testid': 'confirm-ok' } as ButtonProps}
      onConfirm={() => mutation.mutateAsync().catch(() => undefined)}
    >
      <Button type="link" size="small" danger={danger} loading={mutation.isPending} data-testid={testId}>
        {children}
      </Button>
    </Popconfirm>
  );
}

/** 删除 with 确认删除「name」？删除后不可恢复。 */
export function ConfirmDelete({
  name,
  run,
  onDone,
  testId,
}: {
  name: string;
  run: () => Promise<unknown>;
  onDone?: () => void;
  testId: string;
}) {
  return (
    <ConfirmAction
      title={`确认删除「${name}」？删除后不可恢复。`}
      run={run}
      successText="删除成功"
      onDone={onDone}
      danger
      testId={testId}
    >
      删除
    </ConfirmAction>
  );
}

/**
 * The footer of a review dialog: 取消, 驳回 (danger) and 通过 (primary); the decision being sent spins, and neither can be
 * pressed while one is on its way or `locked` holds it back (a double click, a decision just refused).
 */
export function decisionFooter({
  busy,
  locked,
  onClose,
  onDecide,
}: {
  busy: 'pass' | 'reject' | null;
  locked: ReadonlySet<string>;
  onClose: () => void;
  onDecide: (pass: boolean) => void;
}) {
  return [
    <Button key="cancel" onClick={onClose} data-testid="audit-cancel">
      取消
    </Button>,
    <Button
      key="reject"
      danger
      loading={busy === 'reject'}
      disabled={busy !== null || locked.has('reject')}
      onClick={() => onDecide(false)}
      data-testid="audit-reject"
    >
      驳回
    </Button>,
    <Button
      key="pass"
      type="primary"
      loading={busy === 'pass'}
      disabled={busy !== null || locked.has('pass')}
      onClick={() => onDecide(true)}
      data-testid="audit-pass"
    >
      通过
    </Button>,
  ];
}
