import { ArrowLeftOutlined } from '@ant-design/icons';
import { DEFAULT_PAGE_SIZE, type PersonDetail, type PersonRow } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Spin, Table, type TableColumnsType, Tag } from 'antd';
import { Link, useSearchParams } from 'react-router';
import {
  type PersonFilters,
  PUBLIC_DATA_KEY,
  personListQuery,
  personQuery,
  practiceAreasOf,
} from '../../api/publicdata';
import {
  FilterBar,
  KeywordFilter,
  ListCard,
  LoadFailure,
  PageFrame,
  SelectFilter,
  ServerTable,
  useServerList,
} from '../../components/admin';
import { PER_DETAILS_PATH, PersonLink, PublicNav, SECTION, yuan } from './common';

const TITLE = '从业人员';

const gradeTag = (g: string | null) => (g ? <Tag color="blue">{g}</Tag> : '未评价');

function PersonList() {
  const view = useServerList({
    initial: { pageNum: 1, pageSize: DEFAULT_PAGE_SIZE } as PersonFilters,
    query: personListQuery,
    refreshKey: PUBLIC_DATA_KEY,
  });
  const areas = practiceAreasOf(view.list.data);
  const columns: TableColumnsType<PersonRow> = [
    {
      title: '姓名',
      dataIndex: 'name',
      width: 110,
      render: (v: string, r) => (
        <PersonLink id={r.id} testId={`publicdata-person-${r.id}`}>
          {v}
        </PersonLink>
      ),
    },
    { title: '所属企业', dataIndex: 'enterpriseName', ellipsis: true, render: (v: string | null) => v ?? '—' },
    { title: '执业类别', dataIndex: 'practiceArea', width: 160 },
    { title: '注册证号', dataIndex: 'certNo', width: 190 },
    { title: '地区', dataIndex: 'region', width: 90, render: (v: string | null) => v ?? '—' },
    { title: '信用等级', dataIndex: 'creditGrade', width: 100, render: gradeTag },
  ];
  return (
    <ListCard title="从业人员公示" view={view} testId="publicdata-persons">
      <FilterBar>
        <KeywordFilter
          placeholder="姓名"
          onSearch={(keyword) => view.setFilter({ keyword })}
          testId="publicdata-person-keyword"
        />
        <SelectFilter<string>
          placeholder="执业类别"
          value={view.filters.practiceArea}
          onChange={(practiceArea) => view.setFilter({ practiceArea })}
          options={areas.map((a) => ({ value: a, label: a }))}
          width={180}
          testId="publicdata-person-area"
        />
      </FilterBar>
      {view.failed ? (
        <LoadFailure error={view.list.error!} what={TITLE} />
      ) : (
        <ServerTable<PersonRow, PersonFilters>
          view={view}
          columns={columns}
          scrollX={900}
          unit="人"
          testId="publicdata-persons-table"
        />
      )}
    </ListCard>
  );
}

function PersonView({ id }: { id: string }) {
  const q = useQuery(personQuery(id));
  if (q.isError && !q.data) return <LoadFailure error={q.error} what="人员信息" />;
  const p = q.data as PersonDetail | undefined;
  if (!p)
    return (
      <Card>
        <Spin />
      </Card>
    );
  return (
    <div data-testid="publicdata-person">
      <Card
        size="small"
        title={`${p.name}（${p.practiceArea}）`}
        style={{ marginBottom: 16 }}
        extra={
          <Link to={PER_DETAILS_PATH}>
            <Button size="small" icon={<ArrowLeftOutlined />}>
              返回列表
            </Button>
          </Link>
        }
      >
        <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} bordered>
          <Descriptions.Item label="姓名">{p.name}</Descriptions.Item>
          <Descriptions.Item label="所属企业">{p.enterpriseName ?? '—'}</Descriptions.Item>
          <Descriptions.Item label="执业类别">{p.practiceArea}</Descriptions.Item>
          <Descriptions.Item label="注册证号">{p.certNo}</Descriptions.Item>
          <Descriptions.Item label="地区">{p.region ?? '—'}</Descriptions.Item>
          <Descriptions.Item label="信用等级">
            {gradeTag(p.creditGrade)}
            {p.creditScore !== null ? `${p.creditScore} 分` : ''}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Card size="small" title="资格证书" style={{ marginBottom: 16 }}>
        <Table<PersonDetail['qualifications'][number]>
          size="small"
          rowKey={(q) => `${q.name}-${q.level}-${q.certNo}`}
          pagination={false}
          dataSource={p.qualifications}
          locale={{ emptyText: '暂无数据' }}
          data-testid="publicdata-person-quals"
          columns={[
            { title: '证书类型', dataIndex: 'name', width: 200 },
            { title: '专业/等级', dataIndex: 'level', width: 160 },
            { title: '证书编号', dataIndex: 'certNo', width: 200 },
            {
              title: '有效期至',
              dataIndex: 'validUntil',
              width: 140,
              render: (v: string | null, q) =>
                v ? (
                  <>
                    {v} {q.expired ? <Tag color="red">已过期</Tag> : null}
                  </>
                ) : (
                  '长期'
                ),
            },
          ]}
        />
      </Card>
      <Card size="small" title="个人业绩" style={{ marginBottom: 16 }}>
        <Table<PersonDetail['performances'][number]>
          size="small"
          rowKey={(x) => `${x.projectName}-${x.completedAt}`}
          pagination={false}
          dataSource={p.performances}
          locale={{ emptyText: '暂无数据' }}
          scroll={{ x: 800 }}
          data-testid="publicdata-person-perfs"
          columns={[
            { title: '项目名称', dataIndex: 'projectName', ellipsis: true },
            { title: '担任角色', dataIndex: 'role', width: 120 },
            { title: '建设单位', dataIndex: 'builder', width: 220, render: (v: string | null) => v ?? '—' },
            {
              title: '合同金额（元）',
              dataIndex: 'amount',
              width: 160,
              align: 'right',
              render: (v: string | null) => (v === null ? '—' : yuan(Number(v))),
            },
            { title: '竣工日期', dataIndex: 'completedAt', width: 120, render: (v: string | null) => v ?? '—' },
          ]}
        />
      </Card>
      <Card size="small" title="公开信用记录" style={{ marginBottom: 16 }}>
        <Table<PersonDetail['creditRecords'][number]>
          size="small"
          rowKey={(x) => `${x.title}-${x.startDate}`}
          pagination={false}
          dataSource={p.creditRecords}
          locale={{ emptyText: '暂无数据' }}
          data-testid="publicdata-person-credit"
          columns={[
            {
              title: '类别',
              dataIndex: 'kind',
              width: 80,
              render: (v: string) => <Tag color={v === '良好' ? 'green' : 'red'}>{v}</Tag>,
            },
            { title: '事由', dataIndex: 'title', ellipsis: true },
            { title: '分值', dataIndex: 'score', width: 80, align: 'right' },
            { title: '认定单位', dataIndex: 'issuer', width: 200 },
            {
              title: '有效期',
              key: 'period',
              width: 230,
              render: (_, x) => `${x.startDate} 至 ${x.endDate ?? '长期'}${x.expired ? '（已失效）' : ''}`,
            },
          ]}
        />
      </Card>
    </div>
  );
}

/**
 * 从业人员 `/demoPublicPage/perDetails` (issue 19): without `id` the people of the market (name, enterprise, practice
 * area, masked registration number, credit grade); with `?id=` one person's public record — certificates (numbers
 * masked), performances and public credit records. Nothing private (identity number, phone, address) is asked for.
 */
export default function PerDetailsPage() {
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  return (
    <PageFrame section={SECTION} title={id ? '人员详情' : TITLE} nav={<PublicNav current={PER_DETAILS_PATH} />}>
      {id ? <PersonView id={id} /> : <PersonList />}
    </PageFrame>
  );
}
