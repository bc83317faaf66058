import { CloudUploadOutlined } from '@ant-design/icons';
import type { LibraryItem, LibrarySeries } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Skeleton, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { libraryListQuery, librarySeriesQuery } from '../../api/library';
import { FilterBar, KeywordFilter, LoadFailure, PageFrame, RefreshButton, useEditDialog } from '../../components/admin';
import { formatDateTime } from '../../lib/format';
import {
  CurrentTag,
  EditDialog,
  ItemActions,
  STANDARD_SECTION,
  sizeOf,
  UploadDialog,
  useLibraryAdmin,
  useLibraryRefresh,
} from './parts';

/** Versions of one series shown at once (a series rarely has more; older ones page). */
const VERSIONS_PAGE = 10;

function SeriesCard({
  series,
  admin,
  onEdit,
  onNewVersion,
  onDone,
}: {
  series: LibrarySeries;
  admin: boolean;
  onEdit: (item: LibraryItem) => void;
  onNewVersion: (series: string) => void;
  onDone: () => void;
}) {
  const [pageNum, setPageNum] = useState(1);
  const list = useQuery(
    libraryListQuery({ kinds: ['template'], series: series.series, pageNum, pageSize: VERSIONS_PAGE }),
  );
  const columns: TableColumnsType<LibraryItem> = [
    {
      title: '版本',
      dataIndex: 'version',
      width: 150,
      render: (v: string, r) => (
        <Space size={4}>
          <Typography.Text strong>{v}</Typography.Text>
          <CurrentTag item={r} />
        </Space>
      ),
    },
    { title: '名称', dataIndex: 'title', width: 280, render: (t: string, r) => <span title={r.description}>{t}</span> },
    { title: '文件', dataIndex: 'fileName', width: 220, ellipsis: true },
    { title: '大小', key: 'size', width: 90, render: (_, r) => sizeOf(r) },
    { title: '上传人', dataIndex: 'uploaderName', width: 100, render: (v: string | null) => v ?? '—' },
    { title: '上传时间', dataIndex: 'createdAt', width: 160, render: (v: string) => formatDateTime(v) },
    {
      title: '操作',
      key: 'op',
      width: admin ? 300 : 90,
      render: (_, r) => <ItemActions item={r} admin={admin} onEdit={onEdit} onDone={onDone} />,
    },
  ];
  return (
    <Card
      size="small"
      style={{ marginBottom: 16 }}
      data-testid="letterbook-series"
      data-series={series.series}
      title={
        <Space>
          <span data-testid="letterbook-series-name">{series.series}</span>
          <Tag>{series.versions} 个版本</Tag>
          {series.currentVersion ? <Tag color="green">当前 {series.currentVersion}</Tag> : null}
        </Space>
      }
      extra={
        admin ? (
          <Button
            size="small"
            icon={<CloudUploadOutlined />}
            onClick={() => onNewVersion(series.series)}
            data-testid="letterbook-new-version"
          >
            上传新版本
          </Button>
        ) : null
      }
    >
      {list.isError ? (
        <LoadFailure error={list.error} what="版本" />
      ) : (
        <Table<LibraryItem>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={list.data?.records ?? []}
          loading={list.isFetching}
          scroll={{ x: 1400 }}
          locale={{ emptyText: '暂无数据' }}
          pagination={
            (list.data?.total ?? 0) > VERSIONS_PAGE
              ? { current: pageNum, pageSize: VERSIONS_PAGE, total: list.data?.total, onChange: setPageNum }
              : false
          }
          rowClassName={(r) => (r.current ? 'ks-current-row' : '')}
        />
      )}
    </Card>
  );
}

/**
 * 标准文件 `/standardFile/letterBook` (node property letterBook): the standard document templates (招标文件范本, 投标文件格式,
 * 信用承诺书 …) grouped by series, every version listed with the current one marked; 下载 for everyone signed in,
 * uploading new versions, 设为当前版本, editing and deleting for administrators.
 */
export default function LetterBookPage() {
  const admin = useLibraryAdmin();
  const refresh = useLibraryRefresh();
  const series = useQuery(librarySeriesQuery('template'));
  const [keyword, setKeyword] = useState<string | undefined>();
  const [upload, setUpload] = useState<{ series?: string } | null>(null);
  const edit = useEditDialog<LibraryItem>(refresh);
  const shown = (series.data ?? []).filter((s) => !keyword || s.series.includes(keyword));

  return (
    <PageFrame section={STANDARD_SECTION} title="标准文件">
      <Card data-testid="letterbook">
        <FilterBar>
          <KeywordFilter placeholder="标准文件名称" onSearch={setKeyword} testId="letterbook-keyword" />
          <RefreshButton onClick={refresh} query={series} />
          {admin ? (
            <Button
              type="primary"
              icon={<CloudUploadOutlined />}
              onClick={() => setUpload({})}
              data-testid="library-upload"
            >
              上传标准文件
            </Button>
          ) : null}
        </FilterBar>
        {series.isPending ? (
          <Skeleton active />
        ) : series.isError ? (
          <LoadFailure error={series.error} what="标准文件" />
        ) : shown.length === 0 ? (
          <Empty description="暂无数据" />
        ) : (
          shown.map((s) => (
            <SeriesCard
              key={s.series}
              series={s}
              admin={admin}
              onEdit={edit.edit}
              onNewVersion={(name) => setUpload({ series: name })}
              onDone={refresh}
            />
          ))
        )}
      </Card>
      <UploadDialog
        open={upload !== null}
        kinds={['template']}
        series={upload?.series}
        onClose={() => setUpload(null)}
        onSaved={() => {
          setUpload(null);
          refresh();
        }}
      />
      <EditDialog item={edit.open ? edit.record : null} onClose={edit.props.onClose} onSaved={edit.props.onSaved} />
    </PageFrame>
  );
}
