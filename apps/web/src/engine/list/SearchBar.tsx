import { DownOutlined, SearchOutlined, UndoOutlined, UpOutlined } from '@ant-design/icons';
import { Button, Col, Form, Row, Space } from 'antd';
import { useMemo, useState } from 'react';
import { SEARCH_SPAN, SEARCH_THROTTLE_MS, SEARCH_VISIBLE_FIELDS, TEXTS } from './constants';
import { useThrottledCallback } from './hooks';
import { FieldLabel, labelWidth, type SearchField, SearchInput, searchValues } from './searchFields';

export type { SearchField } from './searchFields';

export interface SearchBarProps {
  fields: readonly SearchField[];
  /** the normalised search (§5): empty values dropped, date ranges joined with ',', arrays their last element */
  onSearch: (values: Record<string, string>) => void;
  /** after 重置 has cleared the form; without it, 重置 searches with no conditions */
  onReset?: () => void;
  /** form values to start from (dates as dayjs) */
  initialValues?: Record<string, unknown>;
  /** start expanded */
  defaultExpanded?: boolean;
  loading?: boolean;
  testId?: string;
}

/**
 * The search bar of a list (screen 21): the first 3 fields, 8 of 24 wide; 更多... shows the rest, 6 wide, and 收起
 * hides them again. 搜索 and 重置 are each throttled to one press a second (§9).
 */
export function SearchBar({
  fields,
  onSearch,
  onReset,
  initialValues,
  defaultExpanded = false,
  loading = false,
  testId = 'search-bar',
}: SearchBarProps) {
  const [form] = Form.useForm();
  const [expanded, setExpanded] = useState(defaultExpanded);
  const collapsible = fields.length > SEARCH_VISIBLE_FIELDS;
  const shown = expanded || !collapsible ? fields : fields.slice(0, SEARCH_VISIBLE_FIELDS);
  const span = expanded ? SEARCH_SPAN.expanded : SEARCH_SPAN.collapsed;
  // labels on one line, as wide as the longest (cut with … beyond 128 px: the inputs share a third of the row)
  const labelCol = useMemo(
    () => ({
      flex: `${labelWidth(
        fields.map((f) => f.name),
        { max: 128 },
      )}px`,
    }),
    [fields],
  );

  // getFieldsValue(true): fields hidden by 收起 keep their values (the form preserves them)
  const search = useThrottledCallback(() => onSearch(searchValues(form.getFieldsValue(true))), SEARCH_THROTTLE_MS);
  const reset = useThrottledCallback(() => {
    form.resetFields();
    for (const f of fields) form.setFieldValue(f.code, undefined);
    if (onReset) onReset();
    else onSearch({});
  }, SEARCH_THROTTLE_MS);

  return (
    <Form
      form={form}
      initialValues={initialValues}
      labelCol={labelCol}
      onFinish={search}
      data-testid={testId}
      style={{ marginBottom: 8 }}
    >
      <Row gutter={16}>
        {shown.map((field) => (
          <Col key={field.code} span={span} data-testid={`search-col-${field.code}`}>
            <Form.Item name={field.code} label={<FieldLabel name={field.name} />} style={{ marginBottom: 12 }}>
              <SearchInput field={field} />
            </Form.Item>
          </Col>
        ))}
      </Row>
      <div style={{ display: 'flex', justifyContent: 'flex-end', marginBottom: 12 }}>
        <Space>
          <Button
            type="primary"
            icon={<SearchOutlined />}
            loading={loading}
            onClick={search}
            data-testid="search-submit"
          >
            {TEXTS.search}
          </Button>
          <Button icon={<UndoOutlined />} onClick={reset} data-testid="search-reset">
            {TEXTS.reset}
          </Button>
          {collapsible ? (
            <Button
              type="link"
              onClick={() => setExpanded((v) => !v)}
              data-testid="search-toggle"
              icon={expanded ? <UpOutlined /> : <DownOutlined />}
              iconPlacement="end"
            >
              {expanded ? TEXTS.less : TEXTS.more}
            </Button>
          ) : null}
        </Space>
      </div>
    </Form>
  );
}
