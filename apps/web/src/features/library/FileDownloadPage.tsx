import { CloudUploadOutlined } from '@ant-design/icons';
import type { LibraryItem, LibraryKind } from '@ks/contracts';
import { Button, Card, Space, Table, type TableColumnsType, Typography } from 'antd';
import { useState } from 'react';
import { LIBRARY_KEY, type LibraryFilters, libraryListQuery } from '../../api/library';
import {
  FilterBar,
  KeywordFilter,
  LoadFailure,
  PageFrame,
  pagination,
  RefreshButton,
  SelectFilter,
  useEditDialog,
  useServerList,
} from '../../components/admin';
import { formatDateTime } from '../../lib/format';
import {
  CurrentTag,
  EditDialog,
  ItemActions,
  kindLabel,
  PRODUCT_SECTION,
  sizeOf,
  UploadDialog,
  useLibraryAdmin,
  useLibraryRefresh,
} from './parts';

const KINDS: readonly LibraryKind[] = ['tool', 'manual'];

/**
 * 资料下载 `/productCenter/fileDownload` (node property fileDownload): the client tools (投标文件制作工具, CA 驱动 …) and
 * manuals, every version, searchable; 下载 for everyone signed in, 上传 and the row actions for administrators.
 */
export default function FileDownloadPage() {
  const admin = useLibraryAdmin();
  const refresh = useLibraryRefresh();
  const [uploading, setUploading] = useState(false);
  const edit = useEditDialog<LibraryItem>(refresh);
  const view = useServerList({
    initial: { kinds: [...KINDS], pageNum: 1, pageSize: 10 } as LibraryFilters,
    query: libraryListQuery,
    refreshKey: LIBRARY_KEY,
  });

  const columns: TableColumnsType<LibraryItem> = [
    {
      title: '名称',
      dataIndex: 'title',
      width: 300,
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <Space size={4}>
            <Typography.Text strong data-testid="library-title-cell">
              {r.title}
            </Typography.Text>
            <CurrentTag item={r} />
          </Space>
          {r.description ? (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {r.description}
            </Typography.Text>
          ) : null}
        </Space>
      ),
    },
    { title: '类别', dataIndex: 'kind', width: 110, render: (k: LibraryKind) => kindLabel(k) },
    { title: '所属资料', dataIndex: 'series', width: 150 },
    { title: '版本', dataIndex: 'version', width: 100 },
    { title: '文件', dataIndex: 'fileName', width: 220, ellipsis: true },
    { title: '大小', key: 'size', width: 90, render: (_, r) => sizeOf(r) },
    { title: '上传时间', dataIndex: 'createdAt', width: 160, render: (v: string) => formatDateTime(v) },
    {
      title: '操作',
      key: 'op',
      width: admin ? 300 : 90,
      fixed: 'right',
      render: (_, r) => <ItemActions item={r} admin={admin} onEdit={edit.edit} onDone={refresh} />,
    },
  ];

  return (
    <PageFrame section={PRODUCT_SECTION} title="资料下载">
      {view.failed ? (
        <LoadFailure error={view.list.error!} what="资料" />
      ) : (
        <Card data-testid="library-files">
          <FilterBar>
            <KeywordFilter
              placeholder="名称、版本或说明"
              onSearch={(keyword) => view.setFilter({ keyword })}
              testId="library-keyword"
            />
            <SelectFilter<LibraryKind>
              placeholder="全部类别"
              value={view.filters.kinds.length === 1 ? view.filters.kinds[0] : undefined}
              onChange={(v) => view.setFilter({ kinds: v ? [v] : [...KINDS] })}
              options={KINDS.map((k) => ({ value: k, label: kindLabel(k) }))}
              testId="library-kind-filter"
            />
            <RefreshButton onClick={view.refresh} query={view.list} />
            {admin ? (
              <Button
                type="primary"
                icon={<CloudUploadOutlined />}
                onClick={() => setUploading(true)}
                data-testid="library-upload"
              >
                上传
              </Button>
            ) : null}
          </FilterBar>
          <Table<LibraryItem>
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={view.records}
            loading={view.list.isFetching}
            scroll={{ x: 1450 }}
            locale={{ emptyText: '暂无数据' }}
            pagination={pagination(view.filters, view.total, view.setFilters)}
            data-testid="library-table"
          />
        </Card>
      )}
      <UploadDialog
        open={uploading}
        kinds={KINDS}
        onClose={() => setUploading(false)}
        onSaved={() => {
          setUploading(false);
          refresh();
        }}
      />
      <EditDialog item={edit.open ? edit.record : null} onClose={edit.props.onClose} onSaved={edit.props.onSaved} />
    </PageFrame>
  );
}
