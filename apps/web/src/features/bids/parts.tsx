import type { BidReceipt } from '@ks/contracts';
import { Descriptions, Typography } from 'antd';
import dayjs from 'dayjs';

export const formatTime = (iso: string) => dayjs(iso).format('YYYY-MM-DD HH:mm:ss');
export const formatBytes = (n: number) =>
  n >= 1024 ** 2 ? `${(n / 1024 ** 2).toFixed(1)} MB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KB` : `${n} 字节`;

/** The receipt (回执) of a sealed bid: both hashes in full, the sizes and the time. */
export function Receipt({ receipt }: { receipt: BidReceipt }) {
  return (
    <Descriptions size="small" column={1} bordered data-testid="bid-receipt">
      <Descriptions.Item label="文件">{receipt.fileName}</Descriptions.Item>
      <Descriptions.Item label="递交时间">
        <span data-testid="receipt-time">{formatTime(receipt.sealedAt)}</span>
      </Descriptions.Item>
      <Descriptions.Item label="明文 SHA-256">
        <Typography.Text code copyable data-testid="receipt-plain-sha256">
          {receipt.plainSha256}
        </Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label="密文 SHA-256">
        <Typography.Text code copyable data-testid="receipt-cipher-sha256">
          {receipt.cipherSha256}
        </Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label="大小">
        明文 {formatBytes(receipt.plainSize)}，密文 {formatBytes(receipt.cipherSize)}
      </Descriptions.Item>
      <Descriptions.Item label="加密公钥指纹">
        <Typography.Text code>{receipt.keyFingerprint}</Typography.Text>
      </Descriptions.Item>
    </Descriptions>
  );
}
