import { App, Button, type ButtonProps, Drawer, Form, type FormInstance, Modal, Space } from 'antd';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { SaveErrorAlert } from './feedback';
import { applySaveError, type FieldFilter, type NamePath } from './saveErrors';

export interface FormDialogProps<V extends object, R> {
  open: boolean;
  /**
   * What the dialog edits (a row, a mode): each time the dialog opens, or this changes while open, the form starts
   * afresh from `values`.
   */
  subject?: unknown;
  title: ReactNode;
  /** pass one to watch or set fields from outside (Form.useWatch); otherwise the dialog makes its own */
  form?: FormInstance<V>;
  /** the form's starting values (read when it starts afresh) */
  values?: () => Partial<V> | undefined;
  /** the server's field errors that go onto fields (see applySaveError); the rest is listed above the form */
  fields?: FieldFilter;
  mapName?: (name: NamePath) => NamePath;
  /** sends the values; a rejection is shown (field errors on fields, the rest above the form) and the dialog stays */
  submit: (values: V) => Promise<R>;
  onClose: () => void;
  onSaved: (result: R) => void;
  successText?: string;
  okText?: string;
  okDanger?: boolean;
  okDisabled?: boolean;
  /** data-testid of the save button; the error alert is `${testId}-error` unless errorTestId says otherwise */
  testId: string;
  errorTestId?: string;
  width?: number;
  /** a modal (default) or a drawer from the right with 取消 / save at its foot */
  variant?: 'modal' | 'drawer';
  /** text between the title and the form */
  intro?: ReactNode;
  /** data-testid of the dialog itself */
  dialogTestId?: string;
  /**
   * true (default): the form stays mounted while hidden (its instance can be used at any time); false: its content is
   * dropped when hidden, so controls that keep their own state (e.g. a node picker's chosen system) start afresh too
   */
  keepMounted?: boolean;
  /** 保存 found fields that fail their rules (nothing is sent): e.g. say the form's failure message */
  onInvalid?: () => void;
  children: ReactNode;
}

/**
 * The create / edit dialog of an administration list: a vertical antd form that starts from `values` each time it
 * opens, validates on 保存, sends `submit` once at a time (the button spins), says 保存成功 and hands the answer to
 * `onSaved`; a refusal puts field errors on their fields and the rest in an alert above the form. 取消 / the close
 * button just close it.
 */
export function FormDialog<V extends object, R = unknown>({
  open,
  subject,
  title,
  form: given,
  values,
  fields = [],
  mapName,
  submit,
  onClose,
  onSaved,
  successText = '保存成功',
  okText = '保存',
  okDanger = false,
  okDisabled = false,
  testId,
  errorTestId,
  width,
  variant = 'modal',
  intro,
  dialogTestId,
  keepMounted = true,
  onInvalid,
  children,
}: FormDialogProps<V, R>) {
  const { message } = App.useApp();
  const [own] = Form.useForm<V>();
  const form = given ?? own;
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const valuesRef = useRef(values);
  valuesRef.current = values;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `subject` is the trigger: another row starts the form afresh
  useEffect(() => {
    if (!open) return;
    setErrors([]);
    form.resetFields();
    const start = valuesRef.current?.();
    if (start) form.setFieldsValue(start as Parameters<FormInstance<V>['setFieldsValue']>[0]);
  }, [open, subject, form]);

  const onFinish = async (v: V) => {
    if (saving) return;
    setSaving(true);
    setErrors([]);
    try {
      const result = await submit(v);
      void message.success(successText);
      onSaved(result);
    } catch (err) {
      setErrors(applySaveError(err, form, fields, mapName));
    } finally {
      setSaving(false);
    }
  };

  const body = (
    <>
      {intro}
      <SaveErrorAlert lines={errors} testId={errorTestId ?? `${testId}-error`} />
      <Form<V> form={form} layout="vertical" onFinish={onFinish} onFinishFailed={onInvalid} autoComplete="off">
        {children}
      </Form>
    </>
  );

  if (variant === 'drawer') {
    return (
      <Drawer
        open={open}
        title={title}
        onClose={onClose}
        size={width ?? 640}
        forceRender={keepMounted}
        destroyOnHidden={!keepMounted}
        data-testid={dialogTestId}
        footer={
          <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
            <Button onClick={onClose}>取消</Button>
            <Button
              type="primary"
              danger={okDanger}
              disabled={okDisabled}
              loading={saving}
              onClick={() => form.submit()}
              data-testid={testId}
            >
              {okText}
            </Button>
          </Space>
        }
      >
        {body}
      </Drawer>
    );
  }
  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={okText}
      cancelText="取消"
      confirmLoading={saving}
      okButtonProps={{ danger: okDanger, disabled: okDisabled, 'data-testid': testId } as ButtonProps}
      forceRender={keepMounted}
      destroyOnHidden={!keepMounted}
      width={width}
      data-testid={dialogTestId}
    >
      {body}
    </Modal>
  );
}
