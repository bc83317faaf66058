import { PlusOutlined } from '@ant-design/icons';
import { type FieldDef, perfRequirementText, type TenderProject, type TenderSection } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Descriptions, Empty, Space, Table, type TableColumnsType, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { nodeFieldsQuery } from '../../api/engine';
import { deleteTenderSection, tenderProjectKey, tenderProjectQuery, tenderSettingsQuery } from '../../api/tender';
import { ConfirmAction, LoadFailure, PageFrame } from '../../components/admin';
import { displayValue, statusMeta } from '../../engine/model';
import { formatDate, formatDateTime } from '../../lib/format';
import { ENGINE_PAGES, FIVE_IN_ONE_PAGES } from '../../lib/paths';
import { useEngineNode } from '../engine';
import { SectionDepositPanel } from '../guarantee';
import { VenueBookingPanel } from '../venue';
import { ExpertTab } from './ExpertTab';
import { FilesTab } from './FilesTab';
import { NoticeTab } from './NoticeTab';
import { ProjectFiles } from './ProjectFiles';
import { SectionDialog } from './SectionDialog';
import { SectionSwitch } from './SectionSwitch';

const yuan = (v: number) => v.toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * /fiveInOne/detail?id= — one project of the five-in-one entry (五位一体): 项目信息 (the registration record as its node's
 * fields show it, its review state, and its sections with their money and timeline), then 场地预约, 招标公告,
 * 招标文件 (documents, download records, clarifications), 专家抽取 and 保证金, each per section. Changes to the record itself
 * (edit, submit, review) happen on its engine page, linked here; sections are kept here by the project's side.
 */
export default function FiveInOneDetailPage() {
  const node = useEngineNode();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const project = useQuery({ ...tenderProjectQuery(id), enabled: Boolean(id) });
  const list = `${FIVE_IN_ONE_PAGES.list}?${new URLSearchParams({ systemCoding: node.systemCoding, gnCoding: node.gnCoding })}`;
  const frame = (children: React.ReactNode, title = '项目详情') => (
    <PageFrame section={{ title: node.title || '项目进场登记', to: list }} title={title}>
      {children}
    </PageFrame>
  );
  if (!id) return frame(<Empty description="未指定项目" />);
  if (project.isError) return frame(<LoadFailure error={project.error as Error} what="查看项目" />);
  if (!project.data) return frame(<Card loading data-testid="five-detail-loading" />);
  const p = project.data;
  const title = String(p.values.xmmc ?? '项目详情');
  return frame(
    <Card data-testid="five-detail">
      <Space style={{ marginBottom: 12 }} wrap>
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="five-title">
          {title}
        </Typography.Title>
        <Tag color={statusMeta(p.status).tag} data-testid="five-status">
          {statusMeta(p.status).text}
        </Tag>
      </Space>
      <Tabs
        defaultActiveKey={params.get('tab') ?? 'xmxx'}
        items={[
          { key: 'xmxx', label: '项目信息', children: <ProjectInfo id={id} /> },
          { key: 'cdyy', label: '场地预约', children: <VenueTab project={p} /> },
          { key: 'zsgg', label: '招标公告', children: <NoticeTab project={p} /> },
          { key: 'zswj', label: '招标文件', children: <FilesTab project={p} /> },
          { key: 'zjcq', label: '专家抽取', children: <ExpertTab project={p} /> },
          { key: 'bzj', label: '保证金', children: <DepositTab project={p} /> },
        ]}
      />
    </Card>,
    title,
  );
}

/**
 * 场地预约: the project's side books the opening room for a section (the venue module's panel, its bookings listed per
 * section); others see why they cannot.
 */
function VenueTab({ project }: { project: TenderProject }) {
  if (project.sections.length === 0) return <Empty description="请先在「项目信息」中划分标段，再为标段预约场地" />;
  if (!project.canEdit) return <Empty description="场地由项目的招标人或招标代理预约" />;
  const name = String(project.values.xmmc ?? '');
  return (
    <SectionSwitch sections={project.sections} testId="venue-section">
      {(section) => (
        <>
          <Typography.Text type="secondary">
            投标截止（开标）时间：{formatDateTime(section.bidDeadline)}，请预约开标室与评标室。
          </Typography.Text>
          <VenueBookingPanel
            key={section.id}
            sectionId={section.id}
            subject={`${name} ${section.code} ${section.name} 开标`}
          />
        </>
      )}
    </SectionSwitch>
  );
}

/**
 * 保证金: each section's deposits — counts by state for the project's side (never who registered before opening), every
 * bidder's for the trading centre (the server decides what the caller sees).
 */
function DepositTab({ project }: { project: TenderProject }) {
  if (project.sections.length === 0) return <Empty description="尚未划分标段" />;
  return (
    <SectionSwitch sections={project.sections} testId="deposit-section">
      {(section) => <SectionDepositPanel key={section.id} sectionId={section.id} />}
    </SectionSwitch>
  );
}

/** A field's value as the detail shows it: money and counts with thousands separators, an empty one as —. */
function shownValue(f: FieldDef, v: unknown): string {
  if (typeof v === 'number' && (f.type === 'input-number' || f.type === 'number')) return v.toLocaleString('zh-CN');
  return displayValue(f, v) || '—';
}

function ProjectInfo({ id }: { id: string }) {
  const node = useEngineNode();
  const queryClient = useQueryClient();
  const project = useQuery(tenderProjectQuery(id));
  const fields = useQuery({
    ...nodeFieldsQuery(node.gnCoding, node.systemCoding),
    enabled: Boolean(node.gnCoding && node.systemCoding),
  });
  const settings = useQuery(tenderSettingsQuery);
  const [editing, setEditing] = useState<TenderSection | 'new' | null>(null);
  const p = project.data;
  if (!p) return null;
  const refresh = () => void queryClient.invalidateQueries({ queryKey: tenderProjectKey(id) });
  const shown = (fields.data?.fields ?? []).filter((f: FieldDef) => p.values[f.code] !== undefined);
  const recordHref = `${ENGINE_PAGES.dynamic.detail}?${new URLSearchParams({
    systemCoding: node.systemCoding,
    gnCoding: node.gnCoding,
    id,
  })}`;

  const columns: TableColumnsType<TenderSection> = [
    { title: '标段编号', dataIndex: 'code', width: 110 },
    { title: '标段名称', dataIndex: 'name', width: 200 },
    { title: '估算价（元）', dataIndex: 'estimate', width: 150, align: 'right', render: yuan },
    { title: '投标保证金（元）', dataIndex: 'deposit', width: 150, align: 'right', render: yuan },
    {
      title: '招标文件发售期',
      key: 'sale',
      width: 210,
      render: (_v, s) => `${formatDate(s.docSaleStart)} 至 ${formatDate(s.docSaleEnd)}`,
    },
    {
      title: '投标截止（开标）时间',
      dataIndex: 'bidDeadline',
      width: 170,
      render: (v: string) => formatDateTime(v),
    },
    {
      title: '业绩要求',
      key: 'perf',
      width: 220,
      render: (_v, s) => perfRequirementText(s) ?? <Typography.Text type="secondary">无</Typography.Text>,
    },
    ...(p.canEdit
      ? [
          {
            title: '操作',
            key: 'ops',
            width: 130,
            fixed: 'right' as const,
            render: (_v: unknown, s: TenderSection) => {
              const closed = Date.parse(s.bidDeadline) <= Date.now();
              return closed ? (
                <Typography.Text type="secondary">已截止</Typography.Text>
              ) : (
                <Space size={4}>
                  <Button type="link" size="small" onClick={() => setEditing(s)} data-testid={`section-edit-${s.code}`}>
                    编辑
                  </Button>
                  <ConfirmAction
                    title={`确认删除标段 ${s.code}？`}
                    description="删除后不可恢复。"
                    run={() => deleteTenderSection(s.id)}
                    successText="标段已删除"
                    onDone={refresh}
                    danger
                    testId={`section-delete-${s.code}`}
                  >
                    删除
                  </ConfirmAction>
                </Space>
              );
            },
          },
        ]
      : []),
  ];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card
        size="small"
        title="项目登记信息"
        extra={
          <Link to={recordHref} data-testid="five-record-link">
            {p.canEdit ? '办理登记记录（编辑、提交、审核流程）' : '查看登记记录（审核流程）'}
          </Link>
        }
      >
        <Descriptions column={{ xs: 1, md: 2, xl: 3 }} size="small" bordered data-testid="five-values">
          {shown.map((f) => (
            <Descriptions.Item key={f.code} label={f.name}>
              {shownValue(f, p.values[f.code])}
            </Descriptions.Item>
          ))}
        </Descriptions>
      </Card>
      <Card
        size="small"
        title={`标段（${p.sections.length}）`}
        extra={
          p.canEdit ? (
            <Button
              type="primary"
              size="small"
              icon={<PlusOutlined />}
              onClick={() => setEditing('new')}
              data-testid="section-add"
            >
              新增标段
            </Button>
          ) : null
        }
      >
        <Table<TenderSection>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={p.sections}
          pagination={false}
          scroll={{ x: 1120 }}
          data-testid="section-table"
          locale={{ emptyText: p.canEdit ? '尚无标段，请点击「新增标段」划分标段' : '尚无标段' }}
        />
      </Card>
      <ProjectFiles projectId={id} />
      <SectionDialog
        open={editing !== null}
        projectId={id}
        section={editing === 'new' ? null : editing}
        settings={settings.data?.settings}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          refresh();
        }}
      />
    </Space>
  );
}
