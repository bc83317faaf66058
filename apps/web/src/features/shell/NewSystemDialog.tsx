import { CODE_PATTERN, NEW_SYSTEM_MESSAGES as M, SYSTEM_TITLE_MAX } from '@ks/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal } from 'antd';
import { systemListQuery } from '../../api/platform';
import { type ApiError, isApiError, reportApiError } from '../../api/request';
import { addSystem, MENUS_KEY, type NewSystemResult } from '../../api/shell';

/** Spec §2 screen 9 and §5: the new-system form. levels is fixed to 0. */
export interface NewSystemValues {
  systemName: string;
  title: string;
  gnCoding: string;
}

const FIELDS: (keyof NewSystemValues)[] = ['systemName', 'title', 'gnCoding'];

/** Field errors of a 400 / 409 answer for this form (data.fieldErrors: {field: message | message[]}). */
export function newSystemFieldErrors(err: ApiError): { name: keyof NewSystemValues; errors: string[] }[] {
  const fe = (err.data as { fieldErrors?: Record<string, string | string[]> } | null)?.fieldErrors ?? {};
  const out: { name: keyof NewSystemValues; errors: string[] }[] = [];
  for (const name of FIELDS) {
    const v = fe[name];
    const errors = (Array.isArray(v) ? v : v ? [v] : []).filter((m) => typeof m === 'string' && m);
    if (errors.length) out.push({ name, errors });
  }
  // a duplicate code without field detail still belongs to the code field
  if (!out.length && err.status === 409) out.push({ name: 'gnCoding', errors: [err.message || M.duplicate] });
  return out;
}

export interface NewSystemDialogProps {
  open: boolean;
  onClose(): void;
  /** After the system exists (the dialog has already closed, reset, reloaded lists and announced it). */
  onCreated?(result: NewSystemResult): void;
}

/**
 * 新建系统 (developers): 系统全称, 系统简称 (1–8), 系统编码 (a letter, then letters, digits, underscores). The code
 * cannot change after generation. Success closes the dialog, resets the form, reloads the system list and menus
 * and announces 系统已生成.
 */
export function NewSystemDialog({ open, onClose, onCreated }: NewSystemDialogProps) {
  const [form] = Form.useForm<NewSystemValues>();
  const { message } = App.useApp();
  const queryClient = useQueryClient();

  const create = useMutation({
    mutationFn: (v: NewSystemValues) =>
      addSystem({ systemName: v.systemName.trim(), title: v.title.trim(), gnCoding: v.gnCoding.trim(), levels: 0 }),
    onSuccess: async (result) => {
      form.resetFields();
      onClose();
      void message.success(M.created);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: systemListQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: MENUS_KEY }),
        // the configuration pages' system list (api/config.ts CONFIG_KEY)
        queryClient.invalidateQueries({ queryKey: ['config', 'systems'] }),
      ]);
      onCreated?.(result);
    },
    onError: (err) => {
      if (!isApiError(err)) return;
      const fields = err.status === 400 || err.status === 409 ? newSystemFieldErrors(err) : [];
      if (fields.length) form.setFields(fields);
      else reportApiError(err);
    },
  });

  const cancel = () => {
    if (create.isPending) return;
    form.resetFields();
    onClose();
  };

  return (
    <Modal
      title="新建系统"
      open={open}
      onCancel={cancel}
      footer={null}
      forceRender
      width={520}
      mask={{ closable: false }}
    >
      <Form<NewSystemValues>
        form={form}
        layout="horizontal"
        labelCol={{ flex: '96px' }}
        requiredMark
        onFinish={(v) => create.mutate(v)}
        data-testid="new-system-form"
        data-open={open ? 'true' : 'false'}
        style={{ marginTop: 16 }}
      >
        <Form.Item
          name="systemName"
          label="系统全称"
          rules={[
            { required: true, whitespace: true, message: M.systemNameRequired },
            { max: 50, message: '最多 50 个字符' },
          ]}
        >
          <Input placeholder="如：信用管理系统" autoComplete="off" data-testid="new-system-name" />
        </Form.Item>
        <Form.Item
          name="title"
          label="系统简称"
          rules={[
            { required: true, whitespace: true, message: M.titleRequired },
            { min: 1, max: SYSTEM_TITLE_MAX, message: M.titleLength, transform: (v?: string) => v?.trim() },
          ]}
        >
          <Input placeholder="1 到 8 个字符，显示在页头" autoComplete="off" data-testid="new-system-title" />
        </Form.Item>
        <Form.Item
          name="gnCoding"
          label="系统编码"
          extra="生成后不可修改"
          rules={[
            { required: true, message: M.gnCodingFormat },
            { pattern: CODE_PATTERN, message: M.gnCodingFormat },
          ]}
        >
          <Input placeholder="如：XYGL" autoComplete="off" data-testid="new-system-code" />
        </Form.Item>
        <div style={{ display: 'flex', justifyContent: 'flex-end', gap: 8, marginTop: 8 }}>
          <Button onClick={cancel} disabled={create.isPending} data-testid="new-system-cancel">
            取消
          </Button>
          <Button type="primary" htmlType="submit" loading={create.isPending} data-testid="new-system-submit">
            生成系统
          </Button>
        </div>
      </Form>
    </Modal>
  );
}
