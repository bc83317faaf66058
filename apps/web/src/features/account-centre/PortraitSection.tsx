import { UploadOutlined, UserOutlined } from '@ant-design/icons';
import { AccountMsg, PORTRAIT_MAX_BYTES } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Avatar, Button, Card, Typography, Upload } from 'antd';
import { useState } from 'react';
import { uploadPortrait } from '../../api/accountCentre';
import { currentUserQuery } from '../../api/auth';
import { getUserInfo, setUserInfo } from '../../lib/session';
import { messageOf } from './shared';

const ACCEPT = 'image/jpeg,image/png,image/gif,image/webp';

/** 头像: upload a picture; the server crops it to 256×256 and the header shows it at once. */
export function PortraitSection() {
  const current = useQuery(currentUserQuery);
  const photo = current.data?.userInfo.photo ?? getUserInfo()?.photo ?? null;
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const { message } = App.useApp();

  const upload = async (file: File) => {
    setError(null);
    if (!ACCEPT.split(',').includes(file.type)) return setError(AccountMsg.PORTRAIT_NOT_IMAGE);
    if (file.size > PORTRAIT_MAX_BYTES) return setError(AccountMsg.PORTRAIT_TOO_LARGE);
    setSaving(true);
    try {
      const { photo: url } = await uploadPortrait(file);
      const info = getUserInfo();
      if (info) setUserInfo({ ...info, photo: url });
      await queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey });
      void message.success(AccountMsg.PORTRAIT_SAVED);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title="头像" data-testid="ucenter-portrait">
      <div style={{ display: 'flex', alignItems: 'center', gap: 24, flexWrap: 'wrap' }}>
        <Avatar size={96} src={photo || undefined} icon={<UserOutlined />} data-testid="ucenter-portrait-img" />
        <div>
          <Upload
            accept={ACCEPT}
            showUploadList={false}
            beforeUpload={(file) => {
              void upload(file);
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} loading={saving} data-testid="ucenter-portrait-upload">
              {photo ? '更换头像' : '上传头像'}
            </Button>
          </Upload>
          <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
            支持 JPG、PNG、GIF、WEBP，不超过 5MB；将居中裁剪为 256×256。
          </Typography.Paragraph>
          {error ? (
            <Typography.Text type="danger" data-testid="ucenter-portrait-error">
              {error}
            </Typography.Text>
          ) : null}
        </div>
      </div>
    </Card>
  );
}
