// One default import per icon (each on its own line), so that the bundle holds only the icons listed here.
import AppstoreOutlined from '@ant-design/icons/es/icons/AppstoreOutlined';
import AuditOutlined from '@ant-design/icons/es/icons/AuditOutlined';
import BankOutlined from '@ant-design/icons/es/icons/BankOutlined';
import BarChartOutlined from '@ant-design/icons/es/icons/BarChartOutlined';
import CalendarOutlined from '@ant-design/icons/es/icons/CalendarOutlined';
import CheckCircleOutlined from '@ant-design/icons/es/icons/CheckCircleOutlined';
import ClusterOutlined from '@ant-design/icons/es/icons/ClusterOutlined';
import ContainerOutlined from '@ant-design/icons/es/icons/ContainerOutlined';
import DashboardOutlined from '@ant-design/icons/es/icons/DashboardOutlined';
import DatabaseOutlined from '@ant-design/icons/es/icons/DatabaseOutlined';
import FileProtectOutlined from '@ant-design/icons/es/icons/FileProtectOutlined';
import FileSearchOutlined from '@ant-design/icons/es/icons/FileSearchOutlined';
import FileTextOutlined from '@ant-design/icons/es/icons/FileTextOutlined';
import FolderOutlined from '@ant-design/icons/es/icons/FolderOutlined';
import FundOutlined from '@ant-design/icons/es/icons/FundOutlined';
import HomeOutlined from '@ant-design/icons/es/icons/HomeOutlined';
import IdcardOutlined from '@ant-design/icons/es/icons/IdcardOutlined';
import LockOutlined from '@ant-design/icons/es/icons/LockOutlined';
import NotificationOutlined from '@ant-design/icons/es/icons/NotificationOutlined';
import PieChartOutlined from '@ant-design/icons/es/icons/PieChartOutlined';
import ProfileOutlined from '@ant-design/icons/es/icons/ProfileOutlined';
import ProjectOutlined from '@ant-design/icons/es/icons/ProjectOutlined';
import SafetyCertificateOutlined from '@ant-design/icons/es/icons/SafetyCertificateOutlined';
import ScheduleOutlined from '@ant-design/icons/es/icons/ScheduleOutlined';
import SettingOutlined from '@ant-design/icons/es/icons/SettingOutlined';
import SolutionOutlined from '@ant-design/icons/es/icons/SolutionOutlined';
import TeamOutlined from '@ant-design/icons/es/icons/TeamOutlined';
import ToolOutlined from '@ant-design/icons/es/icons/ToolOutlined';
import TrophyOutlined from '@ant-design/icons/es/icons/TrophyOutlined';
import UserOutlined from '@ant-design/icons/es/icons/UserOutlined';
import type { MENU_ICONS } from '@ks/contracts';
import { Select, type SelectProps } from 'antd';
import type { ComponentType } from 'react';

/**
 * The icons menus, nodes, display groups and header entries may name: exactly the server's MENU_ICONS (the
 * `satisfies` below fails the type check when the two lists differ). An unknown or empty name shows no icon.
 */
const ICONS = {
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
} satisfies Record<(typeof MENU_ICONS)[number], ComponentType>;

const iconOf = (name: string | null | undefined): ComponentType | undefined =>
  name && Object.hasOwn(ICONS, name) ? ICONS[name as keyof typeof ICONS] : undefined;

/** An icon by name; unknown names render nothing. */
export function NamedIcon({ name }: { name: string | null | undefined }) {
  const Icon = iconOf(name);
  return Icon ? <Icon /> : null;
}

/** An icon by name as an element for antd's `icon` props (Menu items); undefined for an unknown name. */
export function iconElement(name: string | null | undefined) {
  const Icon = iconOf(name);
  return Icon ? <Icon /> : undefined;
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
