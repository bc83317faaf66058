import { BgColorsOutlined, UserOutlined } from '@ant-design/icons';
import type { PracticeDetail, Theme } from '@ks/contracts';
import { LOGIN_ROLE_LABELS, type LoginRoleType } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Avatar, Button, Card, Descriptions, Skeleton, Table, Tag } from 'antd';
import { currentUserQuery } from '../../api/auth';
import { getUserInfo } from '../../lib/session';
import { LoginHistorySection, PasswordSection, PhoneSection, PortraitSection } from '../account-centre';
import { LoginDevices, WechatBindings } from '../wechat';
import { asideWidthOf, useShellTheme } from './theme';

export function roleLabelOf(loginRoleType: string | undefined): string {
  return LOGIN_ROLE_LABELS[(loginRoleType ?? 'U') as LoginRoleType] ?? LOGIN_ROLE_LABELS.U;
}

/** Practice status per region (spec §4): 0 unknown / pending, 1 abnormal, 2 normal. */
export const PRACTICE_STATUS: Record<number, { label: string; color: string }> = {
  0: { label: '待核验', color: 'default' },
  1: { label: '异常', color: 'error' },
  2: { label: '正常', color: 'success' },
};

function Swatch({ color, testId }: { color: string; testId?: string }) {
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }} data-testid={testId}>
      <span
        aria-hidden
        style={{
          width: 14,
          height: 14,
          borderRadius: 3,
          background: color,
          border: '1px solid rgba(0,0,0,0.15)',
          display: 'inline-block',
        }}
      />
      <span style={{ fontFamily: 'monospace' }}>{color}</span>
    </span>
  );
}

function ThemeSummary({ theme }: { theme: Theme }) {
  return (
    <Descriptions
      size="small"
      column={{ xs: 1, sm: 2, lg: 3 }}
      data-testid="ucenter-theme"
      items={[
        {
          key: 'mode',
          label: '显示模式',
          children: <span data-testid="ucenter-theme-mode">{theme.theme === 'dark' ? '深色' : '浅色'}</span>,
        },
        {
          key: 'themeColor',
          label: '主题色',
          children: <Swatch color={theme.themeColor} testId="ucenter-theme-color" />,
        },
        { key: 'asideWidth', label: '侧边栏宽度', children: `${asideWidthOf(theme)} px` },
        { key: 'navBg', label: '导航背景色', children: <Swatch color={theme.navBgColor} /> },
        { key: 'navText', label: '导航文字色', children: <Swatch color={theme.navTextColor} /> },
        { key: 'asideActive', label: '侧边栏选中色', children: <Swatch color={theme.asideActiveColor} /> },
        { key: 'asideBg', label: '侧边栏背景色', children: <Swatch color={theme.asideBgColor} /> },
        { key: 'tableBg', label: '表格背景色', children: <Swatch color={theme.tableBgColor} /> },
        { key: 'cardBg', label: '卡片背景色', children: <Swatch color={theme.cardBgColor} /> },
      ]}
    />
  );
}

/** /userCenter/uCenter: who the signed-in user is (as the server confirms it), their practice status and theme. */
export default function UserCenterPage() {
  const current = useQuery(currentUserQuery);
  const user = current.data?.userInfo ?? getUserInfo();
  const { saved, loaded, openSettings } = useShellTheme();
  const details = user?.practicingStatus?.practiceDetails ?? [];

  return (
    <div style={{ maxWidth: 1280, margin: '0 auto', display: 'flex', flexDirection: 'column', gap: 16 }}>
      <Card title="个人信息" data-testid="ucenter-profile">
        {!user && current.isPending ? (
          <Skeleton active avatar paragraph={{ rows: 2 }} />
        ) : (
          <div style={{ display: 'flex', gap: 24, alignItems: 'flex-start', flexWrap: 'wrap' }}>
            <Avatar size={72} src={user?.photo || undefined} icon={<UserOutlined />} style={{ flex: 'none' }} />
            <Descriptions
              style={{ flex: 1, minWidth: 280 }}
              column={{ xs: 1, md: 2 }}
              items={[
                {
                  key: 'userName',
                  label: '用户名',
                  children: <span data-testid="ucenter-name">{user?.userName ?? '—'}</span>,
                },
                {
                  key: 'role',
                  label: '角色',
                  children: (
                    <Tag color="blue" data-testid="ucenter-role" style={{ marginInlineEnd: 0 }}>
                      {roleLabelOf(user?.loginRoleType)}
                    </Tag>
                  ),
                },
                {
                  key: 'enterprise',
                  label: '所属企业',
                  children: <span data-testid="ucenter-enterprise">{user?.enterpriseName || '—'}</span>,
                },
                {
                  key: 'id',
                  label: '用户编号',
                  children: <span style={{ fontFamily: 'monospace' }}>{user?.id ?? '—'}</span>,
                },
              ]}
            />
          </div>
        )}
      </Card>

      <Card title="执业状态" data-testid="ucenter-practice">
        {user?.practicingStatus?.abnormal ? (
          <Alert
            type="warning"
            showIcon
            title={user.practicingStatus.abnormal}
            style={{ marginBottom: 16 }}
            data-testid="ucenter-practice-abnormal"
          />
        ) : null}
        <Table<PracticeDetail>
          size="small"
          rowKey={(r) => r.region}
          pagination={false}
          dataSource={details}
          locale={{ emptyText: '暂无数据' }}
          columns={[
            { title: '序号', key: 'index', width: 70, align: 'center', render: (_v, _r, i) => i + 1 },
            { title: '地区', dataIndex: 'region', key: 'region' },
            {
              title: '执业状态',
              dataIndex: 'status',
              key: 'status',
              width: 140,
              render: (s: number) => {
                const st = PRACTICE_STATUS[s] ?? PRACTICE_STATUS[0];
                return <Tag color={st.color}>{st.label}</Tag>;
              },
            },
            { title: '说明', dataIndex: 'reason', key: 'reason', render: (r: string) => r || '—' },
          ]}
          data-testid="ucenter-practice-table"
        />
      </Card>

      <Card
        title="当前主题"
        extra={
          <Button icon={<BgColorsOutlined />} onClick={openSettings} data-testid="ucenter-theme-edit">
            主题设置
          </Button>
        }
      >
        {loaded ? <ThemeSummary theme={saved} /> : <Skeleton active paragraph={{ rows: 2 }} />}
      </Card>
      <PortraitSection />
      <PhoneSection />
      <PasswordSection />
      <LoginHistorySection />

      <WechatBindings />
      <LoginDevices />
    </div>
  );
}
