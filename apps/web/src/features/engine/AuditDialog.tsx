import { App, Form, Input, Modal, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { decisionFooter } from '../../components/admin';
import { useActionLock } from '../../engine/list/hooks';
import { ENGINE_TEXTS } from '../../engine/model';

export interface AuditDialogProps {
  open: boolean;
  /** what is being reviewed, shown above the suggestion */
  subject?: string;
  onClose: () => void;
  /** after the confirmation: resolves when the decision is stored, rejects to keep the dialog open */
  onDecide: (pass: boolean, suggestion: string) => Promise<unknown>;
}

export const SUGGESTION_MAX = 500;
/** §9: the review suggestion textarea has 5 rows. */
export const SUGGESTION_ROWS = 5;

/**
 * The review dialog (§4): 通过 or 驳回 with a review suggestion (5 rows). 驳回 needs a suggestion (请填写审核建议) and
 * sends nothing without one; each decision is confirmed first (确认通过？ / 确认不通过？). Buttons lock for 1 s.
 */
export function AuditDialog({ open, subject, onClose, onDecide }: AuditDialogProps) {
  const { modal } = App.useApp();
  const [form] = Form.useForm<{ suggestion?: string }>();
  const [busy, setBusy] = useState<'pass' | 'reject' | null>(null);
  const { locked, run } = useActionLock();

  useEffect(() => {
    if (open) {
      form.resetFields();
      setBusy(null);
    }
  }, [open, form]);

  const decide = (pass: boolean) =>
    run(pass ? 'pass' : 'reject', () => {
      const suggestion = String(form.getFieldValue('suggestion') ?? '').trim();
      if (!pass && !suggestion) {
        form.setFields([{ name: 'suggestion', errors: [ENGINE_TEXTS.needSuggestion] }]);
        return;
      }
      form.setFields([{ name: 'suggestion', errors: [] }]);
      modal.confirm({
        title: '提示',
        content: pass ? ENGINE_TEXTS.confirmPass : ENGINE_TEXTS.confirmReject,
        okText: '确定',
        cancelText: '取消',
        okButtonProps: { danger: !pass },
        onOk: async () => {
          setBusy(pass ? 'pass' : 'reject');
          try {
            await onDecide(pass, suggestion);
          } catch {
            // the caller has shown why; the dialog stays for another try
          } finally {
            setBusy(null);
          }
        },
      });
    });

  return (
    <Modal
      open={open}
      title="审核"
      width={560}
      onCancel={onClose}
      destroyOnHidden
      mask={{ closable: false }}
      footer={decisionFooter({ busy, locked, onClose, onDecide: decide })}
    >
      {subject ? (
        <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
          {subject}
        </Typography.Paragraph>
      ) : null}
      <Form form={form} layout="vertical" data-testid="audit-form">
        <Form.Item name="suggestion" label="审核建议" extra="驳回时必须填写审核建议" style={{ marginBottom: 0 }}>
          <Input.TextArea
            rows={SUGGESTION_ROWS}
            maxLength={SUGGESTION_MAX}
            showCount
            placeholder="请输入审核建议"
            data-testid="audit-suggestion"
            onChange={() => form.setFields([{ name: 'suggestion', errors: [] }])}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
