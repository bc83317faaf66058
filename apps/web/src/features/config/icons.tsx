import {
  AppstoreOutlined,
  AuditOutlined,
  BankOutlined,
  BarChartOutlined,
  CalendarOutlined,
  CheckCircleOutlined,
  ClusterOutlined,
  ContainerOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  FileProtectOutlined,
  FileSearchOutlined,
  FileTextOutlined,
  FolderOutlined,
  FundOutlined,
  HomeOutlined,
  IdcardOutlined,
  LockOutlined,
  NotificationOutlined,
  PieChartOutlined,
  ProfileOutlined,
  ProjectOutlined,
  SafetyCertificateOutlined,
  ScheduleOutlined,
  SettingOutlined,
  SolutionOutlined,
  TeamOutlined,
  ToolOutlined,
  TrophyOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Select, type SelectProps } from 'antd';
import type { ComponentType } from 'react';

/** The icons the server offers (MENU_ICONS), imported one by one so the bundle holds only these. */
const ICONS: Record<string, ComponentType> = {
  AppstoreOutlined,
  AuditOutlined,
  BankOutlined,
  BarChartOutlined,
  CalendarOutlined,
  CheckCircleOutlined,
  ClusterOutlined,
  ContainerOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  FileProtectOutlined,
  FileSearchOutlined,
  FileTextOutlined,
  FolderOutlined,
  FundOutlined,
  HomeOutlined,
  IdcardOutlined,
  LockOutlined,
  NotificationOutlined,
  PieChartOutlined,
  ProfileOutlined,
  ProjectOutlined,
  SafetyCertificateOutlined,
  ScheduleOutlined,
  SettingOutlined,
  SolutionOutlined,
  TeamOutlined,
  ToolOutlined,
  TrophyOutlined,
  UserOutlined,
};

/** An icon by name; unknown names render nothing. */
export function NamedIcon({ name }: { name: string | null | undefined }) {
  const Icon = name ? ICONS[name] : undefined;
  return Icon ? <Icon /> : null;
}

/** A Select of icon names, each shown with its icon. */
export function IconSelect({ icons, ...props }: { icons: string[] | undefined } & SelectProps<string>) {
  return (
    <Select<string>
      allowClear
      showSearch={{ optionFilterProp: 'title' }}
      placeholder="请选择图标"
      options={(icons ?? []).map((name) => ({
        value: name,
        label: (
          <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
            <NamedIcon name={name} />
            {name}
          </span>
        ),
        title: name,
      }))}
      {...props}
    />
  );
}
