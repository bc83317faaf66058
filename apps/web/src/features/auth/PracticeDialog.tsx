import { WarningFilled } from '@ant-design/icons';
import type { PracticingStatus } from '@ks/contracts';
import { Button, Modal } from 'antd';
import { abnormalDetails, truncateReason } from './practice';

export const PRACTICE_DIALOG_TITLE = '执业状态提醒';

export interface PracticeDialogProps {
  status: PracticingStatus | null;
  onClose: () => void;
}

/** Lists the regions where the user's practice status is abnormal, with the reason cut to 16 characters. */
export function PracticeDialog({ status, onClose }: PracticeDialogProps) {
  const details = abnormalDetails(status);
  return (
    <Modal
      open={status !== null}
      centered
      width={480}
      closable={false}
      keyboard={false}
      mask={{ closable: false }}
      title={
        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
          <WarningFilled style={{ color: '#fa8c16' }} />
          {PRACTICE_DIALOG_TITLE}
        </span>
      }
      footer={
        <Button type="primary" data-testid="practice-ok" onClick={onClose}>
          我知道了
        </Button>
      }
    >
      <div data-testid="practice-dialog">
        {status?.abnormal ? <p style={{ margin: '4px 0 12px', color: '#4a5466' }}>{status.abnormal}</p> : null}
        {details.length > 0 ? (
          <ul style={{ margin: 0, padding: 0, listStyle: 'none' }}>
            {details.map((d, i) => (
              <li
                // a region may appear more than once
                // biome-ignore lint/suspicious/noArrayIndexKey: the list is static while the dialog is open
                key={`${d.region}-${i}`}
                data-testid="practice-item"
                style={{
                  display: 'flex',
                  gap: 12,
                  padding: '8px 12px',
                  marginBottom: 8,
                  background: '#fff7e6',
                  border: '1px solid #ffd591',
                  borderRadius: 6,
                }}
              >
                <span style={{ fontWeight: 600, color: '#1f2a44', whiteSpace: 'nowrap' }}>{d.region}</span>
                <span style={{ color: '#cf1322', whiteSpace: 'nowrap' }}>异常</span>
                <span style={{ color: '#d46b08' }} title={d.reason}>
                  {truncateReason(d.reason)}
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </Modal>
  );
}
