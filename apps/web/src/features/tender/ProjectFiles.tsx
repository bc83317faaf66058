import { DownloadOutlined } from '@ant-design/icons';
import { CLARIFY_STATUS_LABELS, fileUrlOf, type SectionAttachment } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { downloadStoredFile } from '../../api/files';
import { projectFilesQuery } from '../../api/tender';
import { LoadFailure } from '../../components/admin';
import { formatFileSize } from '../../components/upload/format';
import { formatDateTime } from '../../lib/format';

type Row = SectionAttachment & { sectionCode: string; sectionName: string };

/**
 * 标段附件 of the 项目信息 tab (bd-files): every file of every section — its tender documents with the bidders' recorded
 * downloads, and its clarifications' files with their status — for whoever may read the project (its side, the
 * centre, its reviewers and supervisors), each downloadable. Documents are kept in the 招标文件 tab.
 */
export function ProjectFiles({ projectId }: { projectId: string }) {
  const q = useQuery(projectFilesQuery(projectId));
  if (q.isError) return <LoadFailure error={q.error as Error} what="查看标段附件" />;
  const rows: Row[] = (q.data?.sections ?? []).flatMap((s) =>
    s.attachments.map((a) => ({ ...a, sectionCode: s.sectionCode, sectionName: s.sectionName })),
  );
  const columns: TableColumnsType<Row> = [
    { title: '标段', dataIndex: 'sectionCode', width: 100 },
    {
      title: '类别',
      dataIndex: 'kind',
      width: 110,
      render: (v: string, r) => <Tag color={r.source === 'clarification' ? 'orange' : 'blue'}>{v}</Tag>,
    },
    { title: '名称', dataIndex: 'name', width: 220, ellipsis: true },
    {
      title: '文件',
      key: 'file',
      width: 240,
      ellipsis: true,
      render: (_v, r) => `${r.fileName}（${formatFileSize(r.fileSize)}）`,
    },
    { title: '上传 / 编写', dataIndex: 'by', width: 110 },
    { title: '时间', dataIndex: 'at', width: 160, render: (v: string) => formatDateTime(v) },
    {
      title: '投标人下载 / 状态',
      key: 'state',
      width: 140,
      render: (_v, r) =>
        r.source === 'document'
          ? `${r.downloads ?? 0} 次`
          : r.status && <Tag color={CLARIFY_STATUS_LABELS[r.status].color}>{CLARIFY_STATUS_LABELS[r.status].text}</Tag>,
    },
    {
      title: '操作',
      key: 'ops',
      width: 80,
      fixed: 'right',
      render: (_v, r) => (
        <Button
          type="link"
          size="small"
          icon={<DownloadOutlined />}
          onClick={() =>
            void downloadStoredFile({ url: fileUrlOf(r.fileId), fileName: r.fileName }).catch(() => undefined)
          }
          data-testid={`project-file-download-${r.id}`}
        >
          下载
        </Button>
      ),
    },
  ];
  return (
    <Card
      size="small"
      title={`标段附件（${rows.length}）`}
      extra={<Typography.Text type="secondary">招标文件在「招标文件」页签中上传与发售</Typography.Text>}
    >
      <Table<Row>
        rowKey={(r) => `${r.source}-${r.id}`}
        size="small"
        loading={q.isLoading}
        columns={columns}
        dataSource={rows}
        pagination={rows.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
        scroll={{ x: 1140 }}
        data-testid="project-files"
        locale={{ emptyText: '暂无标段附件' }}
      />
    </Card>
  );
}
