import { CloudUploadOutlined, PlayCircleOutlined } from '@ant-design/icons';
import type { LibraryItem } from '@ks/contracts';
import { Button, Card, Col, Empty, Pagination, Row, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { LIBRARY_KEY, type LibraryFilters, libraryListQuery } from '../../api/library';
import {
  FilterBar,
  KeywordFilter,
  LoadFailure,
  PageFrame,
  pagination,
  RefreshButton,
  useEditDialog,
  useServerList,
} from '../../components/admin';
import type { AttachmentFile } from '../../components/upload/types';
import { VideoPreviewDialog } from '../../components/upload/VideoPreviewDialog';
import { formatDateTime } from '../../lib/format';
import {
  AdminActions,
  CurrentTag,
  DownloadButton,
  EditDialog,
  PRODUCT_SECTION,
  sizeOf,
  UploadDialog,
  useLibraryAdmin,
  useLibraryRefresh,
} from './parts';

const asVideo = (v: LibraryItem): AttachmentFile => ({
  fileId: v.fileId,
  fileName: v.title,
  fileSize: v.fileSize,
  url: v.url,
  preview: 'video',
  annexNo: null,
});

/**
 * 视频教程 `/productCenter/videoDownload` (node property videoDownload): the operation videos as cards; 播放 opens the
 * video preview dialog (screen 5, a frame 780 px high), 下载 saves the file; administrators upload and keep them.
 */
export default function VideoDownloadPage() {
  const admin = useLibraryAdmin();
  const refresh = useLibraryRefresh();
  const [uploading, setUploading] = useState(false);
  const [playing, setPlaying] = useState<AttachmentFile | null>(null);
  const edit = useEditDialog<LibraryItem>(refresh);
  const view = useServerList({
    initial: { kinds: ['video'], pageNum: 1, pageSize: 12 } as LibraryFilters,
    query: libraryListQuery,
    refreshKey: LIBRARY_KEY,
  });
  const pager = pagination(view.filters, view.total, view.setFilters, '个视频');

  return (
    <PageFrame section={PRODUCT_SECTION} title="视频教程">
      {view.failed ? (
        <LoadFailure error={view.list.error!} what="视频" />
      ) : (
        <Card data-testid="library-videos">
          <FilterBar>
            <KeywordFilter
              placeholder="视频名称或说明"
              onSearch={(keyword) => view.setFilter({ keyword })}
              testId="video-keyword"
            />
            <RefreshButton onClick={view.refresh} query={view.list} />
            {admin ? (
              <Button
                type="primary"
                icon={<CloudUploadOutlined />}
                onClick={() => setUploading(true)}
                data-testid="library-upload"
              >
                上传视频
              </Button>
            ) : null}
          </FilterBar>
          <Spin spinning={view.list.isFetching}>
            {view.records.length === 0 ? (
              <Empty description="暂无数据" style={{ padding: 48 }} />
            ) : (
              <Row gutter={[16, 16]}>
                {view.records.map((v) => (
                  <Col key={v.id} xs={24} sm={12} lg={8} xxl={6}>
                    <Card
                      size="small"
                      hoverable
                      data-testid="video-card"
                      cover={
                        <button
                          type="button"
                          onClick={() => setPlaying(asVideo(v))}
                          aria-label={`播放 ${v.title}`}
                          data-testid="video-play"
                          style={{
                            height: 150,
                            border: 0,
                            cursor: 'pointer',
                            background: 'linear-gradient(135deg, #1f3a68, #1362fc)',
                            color: '#fff',
                            fontSize: 48,
                          }}
                        >
                          <PlayCircleOutlined />
                        </button>
                      }
                      actions={[
                        <Button key="play" type="link" size="small" onClick={() => setPlaying(asVideo(v))}>
                          播放
                        </Button>,
                        <DownloadButton key="dl" item={v} />,
                      ]}
                    >
                      <Card.Meta
                        title={
                          <Space size={4}>
                            <span data-testid="video-title">{v.title}</span>
                            <CurrentTag item={v} />
                          </Space>
                        }
                        description={
                          <Space direction="vertical" size={2} style={{ width: '100%' }}>
                            <Typography.Text type="secondary" ellipsis>
                              {v.description || v.series}
                            </Typography.Text>
                            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                              版本 {v.version} · {sizeOf(v)} · {formatDateTime(v.createdAt)}
                            </Typography.Text>
                            {admin ? (
                              <Space size={0} wrap>
                                <AdminActions item={v} onEdit={edit.edit} onDone={refresh} />
                              </Space>
                            ) : null}
                          </Space>
                        }
                      />
                    </Card>
                  </Col>
                ))}
              </Row>
            )}
          </Spin>
          <div style={{ display: 'flex', justifyContent: 'flex-end', marginTop: 16 }}>
            <Pagination {...pager} pageSizeOptions={['12', '24', '48']} />
          </div>
        </Card>
      )}
      <VideoPreviewDialog file={playing} onClose={() => setPlaying(null)} />
      <UploadDialog
        open={uploading}
        kinds={['video']}
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
