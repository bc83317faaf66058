import { Button, Form, Modal } from 'antd';
import { useEffect, useMemo } from 'react';
import { TEXTS } from './constants';
import { FieldLabel, labelWidth, type SearchField, SearchInput, searchValues } from './searchFields';

export interface SearchPopupProps {
  open: boolean;
  title?: string;
  /** inputs: text and link (a text box), radio, daterange, cascader; other FieldDef types as in the search bar */
  fields: readonly SearchField[];
  /** the values the popup opens with (dates as dayjs) */
  initialValues?: Record<string, unknown>;
  /** 确定: the normalised search (§5) */
  onConfirm: (values: Record<string, string>) => void;
  /** the dialog is closed without confirming */
  onCancel: () => void;
  /** 重置 has cleared the inputs (the dialog stays open) */
  onReset?: () => void;
  width?: number;
}

/** The generic search popup (screen 4): one input per field, 重置 clears them, 确定 confirms the search. */
export function SearchPopup({
  open,
  title = '搜索',
  fields,
  initialValues,
  onConfirm,
  onCancel,
  onReset,
  width = 560,
}: SearchPopupProps) {
  const [form] = Form.useForm();
  // labels on one line, in a column as wide as the longest (cut with … beyond 144 px)
  const labelCol = useMemo(() => ({ flex: `${labelWidth(fields.map((f) => f.name))}px` }), [fields]);

  useEffect(() => {
    if (open) {
      form.resetFields();
      if (initialValues) form.setFieldsValue(initialValues);
    }
  }, [open, initialValues, form]);

  const reset = () => {
    for (const f of fields) form.setFieldValue(f.code, undefined);
    onReset?.();
  };

  return (
    <Modal
      open={open}
      title={title}
      width={width}
      onCancel={onCancel}
      forceRender
      footer={[
        <Button key="reset" onClick={reset} data-testid="search-popup-reset">
          {TEXTS.reset}
        </Button>,
        <Button key="ok" type="primary" onClick={() => form.submit()} data-testid="search-popup-confirm">
          {TEXTS.confirm}
        </Button>,
      ]}
    >
      <Form
        form={form}
        labelCol={labelCol}
        onFinish={() => onConfirm(searchValues(form.getFieldsValue(true)))}
        data-testid="search-popup"
      >
        {fields.map((field) => (
          <Form.Item key={field.code} name={field.code} label={<FieldLabel name={field.name} />}>
            <SearchInput field={field} />
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}
