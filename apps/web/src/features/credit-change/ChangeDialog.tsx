import { RFC_AREA_LABELS, RFC_CONTACT_LENGTH, RFC_DIALOG_LENGTH, type RfcArea, rfcRoundTitle } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Badge, Button, Modal, Result, Skeleton, Tabs } from 'antd';
import { useMemo, useState } from 'react';
import { RFC_KEY, rfcRoundsKey, rfcRoundsQuery, rfcTypesQuery } from '../../api/rfc';
import { useCurrentUser } from '../../lib/sessionHooks';
import { latestOf, typesForMode } from './model';
import { RoundPanel } from './RoundPanel';

export interface ChangeDialogProps {
  /** the business area (RFC_AREAS: XYGL_XYJL 信用记录, XYGL_QYXX 企业信息) */
  gnCoding: string;
  systemCoding: string;
  /** the business record the rounds change */
  businessId: string;
  open: boolean;
  onClose: () => void;
  /** 3 by default; 1 is the contact-person mode with the contact selector (spec §1 screen 1) */
  length?: number;
  /**
   * true (default): the caller came to change — a round the caller may start is offered as the last tab; false:
   * the rounds as they are (a reviewer's to-do, a look at the history)
   */
  change?: boolean;
  /** a round was saved, submitted or decided: lists that show rounds refresh */
  onChanged?: () => void;
}

const STATUS_BADGE: Record<string, 'processing' | 'success' | 'error'> = {
  '1': 'processing',
  '2': 'success',
  '-1': 'error',
};

/**
 * The credit change dialog (screen 1): one tab per round of changes to one business record, labelled 第N轮变更, the
 * latest shown. Each round has its initiate-change card, the before/after form (or the contact selector in the
 * length-1 mode) and its review card; the buttons are the ones the server lists for the caller.
 */
export function ChangeDialog({
  gnCoding,
  systemCoding,
  businessId,
  open,
  onClose,
  length = RFC_DIALOG_LENGTH,
  change = true,
  onChanged,
}: ChangeDialogProps) {
  const area = RFC_AREA_LABELS[gnCoding as RfcArea];
  const contactMode = length === RFC_CONTACT_LENGTH;
  return (
    <Modal
      open={open}
      title={contactMode ? '联系人变更' : `${area ?? ''}变更`}
      width={contactMode ? 820 : 1040}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      mask={{ closable: false }}
      styles={{ body: { maxHeight: '72vh', overflowY: 'auto', paddingRight: 4 } }}
      data-testid="rfc-dialog"
    >
      {open && businessId ? (
        <DialogBody
          key={`${gnCoding}:${businessId}:${contactMode ? 1 : 0}`}
          gnCoding={gnCoding}
          systemCoding={systemCoding}
          businessId={businessId}
          contactMode={contactMode}
          change={change}
          onClose={onClose}
          onChanged={onChanged}
        />
      ) : null}
    </Modal>
  );
}

function DialogBody({
  gnCoding,
  systemCoding,
  businessId,
  contactMode,
  change,
  onClose,
  onChanged,
}: {
  gnCoding: string;
  systemCoding: string;
  businessId: string;
  contactMode: boolean;
  change: boolean;
  onClose: () => void;
  onChanged?: () => void;
}) {
  const queryClient = useQueryClient();
  const { isAdmin } = useCurrentUser();
  const rounds = useQuery(rfcRoundsQuery({ change, businessId, gnCoding, systemCoding }));
  const typesQ = useQuery(rfcTypesQuery(gnCoding, systemCoding));
  const types = useMemo(() => typesForMode(typesQ.data ?? [], contactMode), [typesQ.data, contactMode]);
  const [active, setActive] = useState<string | null>(null);

  const reload = () => void queryClient.invalidateQueries({ queryKey: rfcRoundsKey(gnCoding, businessId) });
  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: [...RFC_KEY, 'fields'] });
    // a passed round changed the credit data and the grade
    void queryClient.invalidateQueries({ queryKey: [...RFC_KEY, 'credit'] });
    onChanged?.();
  };

  if (rounds.isPending || typesQ.isPending) return <Skeleton active paragraph={{ rows: 10 }} />;
  const error = rounds.error ?? typesQ.error;
  if (error) {
    return (
      <Result
        status="warning"
        title="变更记录加载失败"
        subTitle={error.message}
        extra={
          <Button
            type="primary"
            onClick={() => {
              void rounds.refetch();
              void typesQ.refetch();
            }}
          >
            重试
          </Button>
        }
        data-testid="rfc-load-error"
      />
    );
  }
  const list = rounds.data ?? [];
  const latest = latestOf(list);
  if (!latest) {
    return (
      <Result
        status="info"
        title="暂无变更记录"
        subTitle="该记录还没有变更，且当前账号不能发起变更。"
        data-testid="rfc-empty"
      />
    );
  }
  const latestKey = String(latest.round);
  const shown = active && list.some((r) => String(r.round) === active) ? active : latestKey;

  return (
    <>
      {latest.businessName ? (
        <Alert
          type="info"
          style={{ marginBottom: 12 }}
          title={
            <span data-testid="rfc-business">
              {latest.businessName}
              {latest.enterpriseName && !latest.businessName.includes(latest.enterpriseName)
                ? `（${latest.enterpriseName}）`
                : ''}
            </span>
          }
        />
      ) : null}
      <Tabs
        activeKey={shown}
        onChange={setActive}
        data-testid="rfc-tabs"
        items={list.map((r) => ({
          key: String(r.round),
          label: (
            <span data-testid={`rfc-tab-${r.round}`}>
              <Badge status={r.id ? STATUS_BADGE[r.change] : 'default'} />
              {rfcRoundTitle(r.round)}
            </span>
          ),
          children: (
            <RoundPanel
              key={`${r.round}:${r.id ?? 'new'}:${r.version}`}
              round={r}
              latest={r === latest}
              gnCoding={gnCoding}
              systemCoding={systemCoding}
              businessId={businessId}
              types={types}
              isAdmin={isAdmin}
              onReload={reload}
              onChanged={changed}
              onSubmitted={() => {
                reload();
                onClose();
              }}
              onClose={onClose}
            />
          ),
        }))}
      />
    </>
  );
}
