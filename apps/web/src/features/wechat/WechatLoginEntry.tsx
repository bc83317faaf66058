import { WechatOutlined } from '@ant-design/icons';
import type { LoginResponse } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Divider } from 'antd';
import { useState } from 'react';
import { loginModeQuery } from '../../api/wechat';
import { WechatQrDialog } from './WechatQrDialog';

/** The sign-in page's 微信扫码登录 entry: shown only when the platform says WeChat sign-in is available. */
export function WechatLoginEntry({ onSignedIn }: { onSignedIn: (res: LoginResponse) => void }) {
  const mode = useQuery(loginModeQuery);
  const [open, setOpen] = useState(false);
  if (!mode.data?.methods.includes('wechat')) return null;
  return (
    <>
      <Divider plain style={{ margin: '20px 0 12px', fontSize: 12, color: '#8a93a6' }}>
        其他登录方式
      </Divider>
      <Button
        block
        icon={<WechatOutlined style={{ color: '#07c160' }} />}
        onClick={() => setOpen(true)}
        data-testid="wechat-login"
      >
        微信扫码登录
      </Button>
      <WechatQrDialog
        open={open}
        purpose="login"
        onClose={() => setOpen(false)}
        onDone={(s) => {
          setOpen(false);
          if (s.login) onSignedIn(s.login);
        }}
      />
    </>
  );
}
