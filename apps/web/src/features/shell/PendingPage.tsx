import { DEFAULT_HOME_URL, NODE_PROPERTIES } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Result, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { systemListQuery } from '../../api/platform';
import { mainMenusQuery } from '../../api/shell';
import { findBy } from '../../lib/menuTree';
import { JUDGE_PATH, nodePageHref, SET_UP_FORM_PATH } from '../../lib/paths';
import { useCurrentUser, useSystemCoding } from '../../lib/sessionHooks';

export const PENDING_TITLE = '该功能页面尚未开放';

/**
 * The honest "not yet available" page, inside the shell (header and sidebar stay): it names the business area (the
 * system and the node), says why it cannot be handled yet, and offers the way back — never a fake page. A developer
 * also gets the way to make it available when that is configuration (a list node's fields).
 */
export function PendingView({
  nodeTitle,
  systemName,
  reason,
  detail,
  configure,
}: {
  /** the node's title, when known */
  nodeTitle: string | null;
  /** the business system's name, when known */
  systemName: string | null;
  /** why it is not available yet, in a sentence */
  reason: string;
  /** a smaller line below (the page address) */
  detail?: ReactNode;
  /** for developers: where to make it available, and the button's words */
  configure?: { to: string; label: string } | null;
}) {
  const navigate = useNavigate();
  const area = [systemName, nodeTitle].filter(Boolean).join(' · ');
  return (
    <Card data-testid="pending-page">
      <Result
        status="info"
        title={nodeTitle ? `「${nodeTitle}」暂未开放` : PENDING_TITLE}
        subTitle={
          <Space orientation="vertical" size={4}>
            <Typography.Text type="secondary" data-testid="pending-area">
              {area ? `${area}：` : ''}
              {reason}
            </Typography.Text>
            {detail ? (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {detail}
              </Typography.Text>
            ) : null}
          </Space>
        }
        extra={
          <Space wrap>
            {configure ? (
              <Button type="primary" onClick={() => navigate(configure.to)} data-testid="pending-configure">
                {configure.label}
              </Button>
            ) : null}
            <Button type={configure ? 'default' : 'primary'} onClick={() => navigate(JUDGE_PATH)}>
              返回业务系统
            </Button>
            <Button onClick={() => navigate(DEFAULT_HOME_URL)}>返回首页</Button>
          </Space>
        }
      />
    </Card>
  );
}

/** The business system's name, from the systems the user may enter. */
export function useSystemName(systemCoding: string | null): string | null {
  const systems = useQuery({ ...systemListQuery, enabled: Boolean(systemCoding) });
  return systems.data?.find((s) => s.systemCoding === systemCoding)?.systemName ?? null;
}

/**
 * The pages of business areas this release does not include yet (the sidebar already routes to them): shown by the
 * route table for every such path.
 */
export default function PendingPage() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const chosen = useSystemCoding();
  const systemCoding = params.get('systemCoding') ?? chosen;
  const gnCoding = params.get('gnCoding');
  const menus = useQuery({ ...mainMenusQuery(systemCoding ?? ''), enabled: Boolean(systemCoding) });
  const node = gnCoding && menus.data ? findBy(menus.data, (m) => m.gnCoding === gnCoding) : null;
  const systemName = useSystemName(systemCoding);
  const kind = NODE_PROPERTIES.find(
    (p) => pathname.startsWith(p.path) || ('adminPath' in p && pathname === p.adminPath),
  );
  return (
    <PendingView
      nodeTitle={node?.title ?? null}
      systemName={systemName}
      reason={`${kind ? `${kind.label}业务` : '该业务'}的办理页面将在后续版本中提供，当前版本暂不能办理。`}
      detail={`页面地址：${pathname}${gnCoding ? `，节点编码：${gnCoding}` : ''}`}
    />
  );
}

/**
 * A list-type node whose fields are not configured yet (its schema version is 0): not available, and for developers
 * the way to 字段设置.
 */
export function UnconfiguredNode({
  gnCoding,
  systemCoding,
  nodeTitle,
}: {
  gnCoding: string;
  systemCoding: string;
  nodeTitle: string;
}) {
  const { isDeveloper } = useCurrentUser();
  const systemName = useSystemName(systemCoding);
  return (
    <PendingView
      nodeTitle={nodeTitle}
      systemName={systemName}
      reason={
        isDeveloper
          ? '该节点的表单字段尚未配置，配置完成后即可在此新增、查询和办理记录。'
          : '该业务的办理功能正在建设中，当前版本暂不能办理。'
      }
      configure={
        isDeveloper
          ? { to: nodePageHref(SET_UP_FORM_PATH, gnCoding, systemCoding), label: '配置字段（字段设置）' }
          : null
      }
    />
  );
}
