import { PlusOutlined } from '@ant-design/icons';
import {
  CA_EXPIRY_LABELS,
  CA_EXPIRY_STATES,
  type CaBinding,
  type CaBindingsQuery,
  type CaExpiryState,
} from '@ks/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Modal, Result, Space, type TableColumnsType, Typography } from 'antd';
import { useState } from 'react';
import { CA_BINDINGS_KEY, caBind, caBindingsQuery, caUnbind } from '../../api/ca';
import {
  ConfirmAction,
  FilterBar,
  KeywordFilter,
  ListCard,
  LoadFailure,
  PageFrame,
  SelectFilter,
  ServerTable,
  useServerList,
} from '../../components/admin';
import { formatDateTime } from '../../lib/format';
import { useCurrentUser } from '../../lib/sessionHooks';
import {
  AgentStatus,
  algorithmLabel,
  CertPicker,
  chosenOr,
  ExpiryTag,
  failureText,
  signNonce,
  useCaAgent,
} from './parts';

export const LOCK_TITLE = 'CA锁管理';
export const LOCK_DEVELOPER_HINT =
  '锁管理供企业用户绑定本企业的 CA 锁（绑定后可插锁登录），供管理员查看和解除各企业的证书绑定。请使用企业账号或管理员账号办理。';
export const LOCK_EMPTY_HINT =
  '尚未绑定 CA 锁。插入企业 CA 锁并启动证书签名助手后，点击「绑定证书」完成绑定；也可在证书登录页通过「绑定证书」用企业账号和密码绑定。绑定后即可插锁登录。';

/** 绑定证书 inside /lock: the caller's enterprise, a key's certificate, its signature. */
function BindDialog({ open, onClose, onBound }: { open: boolean; onClose: () => void; onBound: () => void }) {
  const { message } = App.useApp();
  const { state, retry, checking } = useCaAgent();
  const [picked, setPicked] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const certs = state.status === 'ready' ? state.certs : [];
  const chosenId = chosenOr(certs, picked);
  const chosen = certs.find((c) => c.id === chosenId) ?? null;

  const onOk = async () => {
    if (state.status !== 'ready' || !chosen) return;
    setSubmitting(true);
    setError(null);
    try {
      await caBind(await signNonce(state.agentUrl, chosen));
      void message.success('证书绑定成功');
      onBound();
      onClose();
    } catch (err) {
      setError(failureText(err));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Modal
      open={open}
      title="绑定证书"
      okText="绑定"
      cancelText="取消"
      onOk={() => void onOk()}
      onCancel={onClose}
      confirmLoading={submitting}
      okButtonProps={{ disabled: !chosen, 'data-testid': 'ca-bind-ok' } as never}
      destroyOnHidden
      width={560}
    >
      <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="ca-bind-dialog">
        <AgentStatus state={state} retry={retry} checking={checking} />
        {state.status === 'ready' && certs.length ? (
          <CertPicker certs={certs} value={chosenId} onChange={setPicked} />
        ) : null}
        {error ? <Alert type="error" showIcon title={error} data-testid="ca-bind-error" /> : null}
      </Space>
    </Modal>
  );
}

type Filters = CaBindingsQuery;

/**
 * /lock (CA锁管理): the certificates bound to the caller's enterprise — every enterprise's for administrators, with
 * keyword and expiry filters — with their expiry (即将过期 within 30 days, 已过期), 绑定证书 for enterprise users and
 * 解除绑定 after a confirmation.
 */
export default function LockPage() {
  const { isDeveloper } = useCurrentUser();
  return isDeveloper ? <DeveloperNotice /> : <Bindings />;
}

/**
 * A developer's account belongs to no enterprise and holds no CA lock, and the enterprises' certificates are not a
 * developer's to read: the page says what it is for and who uses it instead of asking the server.
 */
function DeveloperNotice() {
  return (
    <PageFrame section={{ title: '账号安全' }} title={LOCK_TITLE}>
      <Result
        status="info"
        title="开发人员账号不绑定 CA 锁"
        subTitle={LOCK_DEVELOPER_HINT}
        data-testid="ca-lock-developer"
      />
    </PageFrame>
  );
}

function Bindings() {
  const queryClient = useQueryClient();
  const { isAdmin, userInfo } = useCurrentUser();
  const [binding, setBinding] = useState(false);
  const view = useServerList({
    initial: { pageNum: 1, pageSize: 10 } as Filters,
    query: caBindingsQuery,
    refreshKey: CA_BINDINGS_KEY,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: CA_BINDINGS_KEY });
  const enterpriseName = isAdmin ? null : userInfo?.enterpriseName;
  const canBind = userInfo?.loginRoleType === 'U';

  const columns: TableColumnsType<CaBinding> = [
    { title: '证书持有者', dataIndex: 'holder', width: 200 },
    ...(isAdmin ? [{ title: '企业', dataIndex: 'enterpriseName', width: 200 }] : []),
    { title: '统一社会信用代码', dataIndex: 'creditCode', width: 190 },
    { title: '算法', dataIndex: 'algorithm', width: 120, render: (a: CaBinding['algorithm']) => algorithmLabel(a) },
    { title: '颁发机构', dataIndex: 'issuer', width: 160 },
    {
      title: '序列号',
      dataIndex: 'serial',
      width: 150,
      render: (s: string) => (
        <Typography.Text copyable={{ text: s }} ellipsis style={{ maxWidth: 130 }} title={s}>
          {s}
        </Typography.Text>
      ),
    },
    {
      title: '有效期至',
      dataIndex: 'notAfter',
      width: 190,
      render: (_: string, r) => <ExpiryTag expiry={r.expiry} notAfter={r.notAfter} />,
    },
    { title: '绑定人', dataIndex: 'boundBy', width: 100 },
    { title: '绑定时间', dataIndex: 'boundAt', width: 160, render: (v: string) => formatDateTime(v) },
    {
      title: '操作',
      key: 'actions',
      width: 100,
      fixed: 'right',
      render: (_: unknown, r) => (
        <ConfirmAction
          title="确认解除该证书的绑定？"
          description="解除后该 CA 锁不能再用于登录，需重新绑定。"
          run={() => caUnbind(r.id)}
          successText="已解除绑定"
          onDone={refresh}
          danger
          testId="ca-unbind"
        >
          解除绑定
        </ConfirmAction>
      ),
    },
  ];

  return (
    <PageFrame section={{ title: '账号安全' }} title={LOCK_TITLE}>
      {view.failed ? (
        <LoadFailure error={view.list.error as Error} what="管理 CA 锁" />
      ) : (
        <ListCard
          title={enterpriseName ? `${LOCK_TITLE} · ${enterpriseName}` : LOCK_TITLE}
          view={view}
          testId="ca-lock-card"
          actions={
            canBind ? (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setBinding(true)} data-testid="ca-bind">
                绑定证书
              </Button>
            ) : null
          }
        >
          <FilterBar>
            {isAdmin ? (
              <KeywordFilter
                placeholder="企业名称、信用代码、持有者或序列号"
                onSearch={(keyword) => view.setFilter({ keyword })}
                testId="ca-keyword"
              />
            ) : null}
            <SelectFilter<CaExpiryState>
              placeholder="有效期状态"
              value={view.filters.expiry}
              onChange={(expiry) => view.setFilter({ expiry })}
              options={CA_EXPIRY_STATES.map((s) => ({ value: s, label: CA_EXPIRY_LABELS[s] }))}
              testId="ca-expiry-filter"
            />
          </FilterBar>
          <ServerTable<CaBinding, Filters>
            view={view}
            columns={columns}
            testId="ca-bindings"
            scrollX={isAdmin ? 1560 : 1360}
            emptyText={
              <div style={{ padding: '24px 0', color: '#5b6475' }} data-testid="ca-empty">
                {view.filters.expiry || view.filters.keyword ? '没有符合条件的证书绑定' : LOCK_EMPTY_HINT}
              </div>
            }
          />
        </ListCard>
      )}
      {binding ? <BindDialog open onClose={() => setBinding(false)} onBound={refresh} /> : null}
    </PageFrame>
  );
}
