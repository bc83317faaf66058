import { COMMITMENT_TEMPLATE_SERIES, type LibraryKind } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Space, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { libraryCurrentQuery } from '../../api/library';
import { DownloadButton } from './parts';

export const LETTER_BOOK_PATH = '/standardFile/letterBook';

/**
 * The current standard version of a series (标准文件), shown where the document is used — the credit commitment book
 * shows the current 信用承诺书 template: its title, version (当前版本) and 下载.
 */
export function StandardTemplate({
  series = COMMITMENT_TEMPLATE_SERIES,
  kind = 'template',
}: {
  series?: string;
  kind?: LibraryKind;
}) {
  const current = useQuery(libraryCurrentQuery(kind, series));
  if (current.isPending) return null;
  if (current.isError) {
    return (
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        title={`标准文本加载失败：${current.error.message}`}
      />
    );
  }
  const item = current.data;
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 16 }}
      data-testid="standard-template"
      title={
        item ? (
          <Space wrap>
            <span>标准文本：</span>
            <Typography.Text strong data-testid="standard-template-title">
              {item.title}
            </Typography.Text>
            <Tag color="green" data-testid="standard-template-version">
              当前版本 {item.version}
            </Tag>
            <DownloadButton item={item} testId="standard-template-download" />
            <Link to={LETTER_BOOK_PATH}>全部版本</Link>
          </Space>
        ) : (
          `暂无「${series}」标准文本`
        )
      }
    />
  );
}
