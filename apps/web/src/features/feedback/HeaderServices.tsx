import { CommentOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Tooltip } from 'antd';
import { type CSSProperties, useState } from 'react';
import { currentUserQuery } from '../../api/auth';
import { getUserInfo } from '../../lib/session';
import { WeatherWidget } from '../weather';
import { FeedbackDrawer } from './FeedbackDrawer';

const button: CSSProperties = {
  display: 'inline-flex',
  alignItems: 'center',
  gap: 6,
  height: 40,
  padding: '0 8px',
  border: 'none',
  borderRadius: 6,
  background: 'transparent',
  cursor: 'pointer',
  fontSize: 14,
};

/**
 * The header's weather widget and, for everyone but administrators (spec §6: ordinary users get the feedback
 * control; administrators read the results at /system/feedback), the 反馈 button with its drawer. `color`: the
 * header's text colour (the user's theme).
 */
export function HeaderServices({ color }: { color: string }) {
  const { data: current } = useQuery(currentUserQuery);
  const role = (current?.userInfo ?? getUserInfo())?.loginRoleType;
  const [open, setOpen] = useState(false);
  return (
    <>
      <WeatherWidget color={color} buttonStyle={button} />
      {role && role !== 'M' ? (
        <>
          <Tooltip title="意见反馈">
            <button
              type="button"
              data-testid="feedback-button"
              onClick={() => setOpen(true)}
              style={{ ...button, color }}
            >
              <CommentOutlined style={{ fontSize: 16 }} />
              <span>反馈</span>
            </button>
          </Tooltip>
          <FeedbackDrawer open={open} onClose={() => setOpen(false)} />
        </>
      ) : null}
    </>
  );
}
