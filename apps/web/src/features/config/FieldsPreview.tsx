import { CheckCircleOutlined, UndoOutlined } from '@ant-design/icons';
import { type FieldDef, type FieldValues, validateRecord, validationClock } from '@ks/contracts';
import { Alert, Button, Card, Empty, Radio, Segmented, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { DynamicForm, type DynamicFormHandle } from '../../engine/form/DynamicForm';
import { FilterCard, type SearchTag } from '../../engine/list/FilterCard';
import { explicitFilters, filterPreview, previewFields } from './fieldRows';

/**
 * Live previews of the field editor: the real DynamicForm built from the fields being edited (表单 with 校验, or
 * 详情), at a simulated window width, and the FilterCard the list would show with the current filter flags.
 */

/** Window widths the preview simulates: ≤1280 one field a row, ≤1536 two, wider the fields' own col. */
export const PREVIEW_WIDTHS = [1280, 1536, 1920] as const;
export type PreviewWidth = (typeof PREVIEW_WIDTHS)[number];
/** What a record page leaves the form of the window: the sidebar (200) and the page and card padding (2 × 48). */
export const FORM_CHROME = 296;

type Mode = 'form' | 'detail';

const structureOf = (fields: readonly FieldDef[]) => fields.map((f) => `${f.code}:${f.type}`).join('|');

export function FormPreview({
  defs,
  saved,
  gnCoding,
  systemCoding,
  side,
  onSide,
}: {
  defs: readonly FieldDef[];
  saved: readonly FieldDef[];
  gnCoding: string;
  systemCoding: string;
  /** shown beside the field table (true) or below it */
  side: boolean;
  onSide: (side: boolean) => void;
}) {
  const [mode, setMode] = useState<Mode>('form');
  const [width, setWidth] = useState<PreviewWidth>(1920);
  const [fit, setFit] = useState(true);
  const [result, setResult] = useState<{ ok: boolean; messages: string[] } | null>(null);
  const [sample, setSample] = useState<FieldValues>({});
  const sampleRef = useRef<FieldValues>({});
  const form = useRef<DynamicFormHandle>(null);
  const pane = useRef<HTMLDivElement>(null);
  const [paneWidth, setPaneWidth] = useState(0);
  const { fields, pending } = useMemo(() => previewFields(defs, saved), [defs, saved]);
  const structure = structureOf(fields);

  // a field added, removed or retyped starts the form again, keeping the values of the fields that stay
  // biome-ignore lint/correctness/useExhaustiveDependencies: the seed changes with the structure only
  const seed = useMemo(() => {
    const keep: FieldValues = {};
    for (const f of fields) if (Object.hasOwn(sampleRef.current, f.code)) keep[f.code] = sampleRef.current[f.code];
    return keep;
  }, [structure]);

  // the result of 校验 belongs to the fields it ran on
  // biome-ignore lint/correctness/useExhaustiveDependencies: cleared whenever the fields change
  useEffect(() => setResult(null), [fields]);

  useEffect(() => {
    const el = pane.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver((entries) => setPaneWidth(entries[0]?.contentRect.width ?? 0));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const frame = width - FORM_CHROME;
  const scale = fit && paneWidth > 0 ? Math.min(1, paneWidth / frame) : 1;

  const check = async () => {
    const handle = form.current;
    if (!handle) return;
    const values = handle.getValues();
    const ok = (await handle.validate()) !== null;
    const messages = Object.values(validateRecord(fields, values, validationClock()));
    setResult({ ok, messages });
  };

  return (
    <Card
      size="small"
      title="表单预览"
      data-testid="form-preview"
      extra={
        <Space wrap size={8}>
          <Segmented<Mode>
            size="small"
            value={mode}
            onChange={(m) => {
              setMode(m);
              setResult(null);
            }}
            options={[
              { value: 'form', label: '表单' },
              { value: 'detail', label: '详情' },
            ]}
            data-testid="preview-mode"
          />
          <Segmented<PreviewWidth>
            size="small"
            value={width}
            onChange={setWidth}
            options={PREVIEW_WIDTHS.map((w) => ({ value: w, label: `${w}px` }))}
            data-testid="preview-width"
          />
          <Segmented<'side' | 'below'>
            size="small"
            value={side ? 'side' : 'below'}
            onChange={(v) => onSide(v === 'side')}
            options={[
              { value: 'side', label: '右侧' },
              { value: 'below', label: '下方' },
            ]}
            title="预览位置（宽屏时）"
            data-testid="preview-place"
          />
          <Tooltip title="缩放以适应预览区；关闭后按实际大小显示，可横向滚动">
            <Switch
              size="small"
              checked={fit}
              onChange={setFit}
              checkedChildren="适应"
              unCheckedChildren="100%"
              data-testid="preview-fit"
            />
          </Tooltip>
        </Space>
      }
    >
      <Space wrap size={8} style={{ marginBottom: 8 }}>
        <Tag color="gold">示例数据</Tag>
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="preview-frame-note">
          模拟窗口宽度 {width}px，表单区域 {frame}px
          {scale < 1 ? `，缩放 ${Math.round(scale * 100)}%` : ''}
        </Typography.Text>
        {mode === 'form' ? (
          <>
            <Button
              size="small"
              type="primary"
              icon={<CheckCircleOutlined />}
              onClick={check}
              data-testid="preview-check"
            >
              校验
            </Button>
            <Button
              size="small"
              icon={<UndoOutlined />}
              onClick={() => {
                form.current?.reset({});
                sampleRef.current = {};
                setSample({});
                setResult(null);
              }}
              data-testid="preview-reset"
            >
              清空
            </Button>
          </>
        ) : null}
      </Space>
      {result ? (
        result.ok ? (
          <Alert type="success" showIcon title="校验通过" style={{ marginBottom: 8 }} data-testid="preview-result" />
        ) : (
          <Alert
            type="error"
            showIcon
            style={{ marginBottom: 8 }}
            title={`校验未通过（${result.messages.length} 项）：${result.messages.join('；')}`}
            data-testid="preview-result"
          />
        )
      ) : null}
      {pending.length ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 8 }}
          title={`${pending.map((f) => f.name || f.code).join('、')} 的选项来自数据源，保存后可在预览中加载`}
          data-testid="preview-pending"
        />
      ) : null}
      <div ref={pane} style={{ overflowX: 'auto', overflowY: 'hidden' }}>
        {fields.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无字段" />
        ) : (
          <div
            style={{ width: frame, zoom: scale, border: '1px dashed #d9d9d9', padding: 16, borderRadius: 6 }}
            data-testid="preview-frame"
            data-width={width}
          >
            {mode === 'form' ? (
              <DynamicForm
                key={structure}
                ref={form}
                fields={fields}
                initialValues={seed}
                systemCoding={systemCoding}
                gnCoding={gnCoding}
                layoutWidth={width}
                onValuesChange={(v) => {
                  sampleRef.current = v;
                  setSample(v);
                }}
              />
            ) : (
              <DynamicForm
                fields={fields}
                initialValues={sample}
                readOnly
                systemCoding={systemCoding}
                gnCoding={gnCoding}
                layoutWidth={width}
              />
            )}
          </div>
        )}
      </div>
    </Card>
  );
}

export function FilterPreview({
  defs,
  gnCoding,
  onDefault,
}: {
  defs: readonly FieldDef[];
  gnCoding: string;
  /** back to the default groups (every flag removed) */
  onDefault: () => void;
}) {
  const { definition, notes } = useMemo(() => filterPreview(gnCoding, defs), [gnCoding, defs]);
  const [tags, setTags] = useState<SearchTag[]>([]);
  const explicit = explicitFilters(defs);
  const codes = new Set(definition.displayList.map((g) => g.code));
  const shownTags = tags.filter((t) => codes.has(t.code));
  return (
    <Card size="small" title="筛选卡片预览" data-testid="filter-preview" style={{ marginTop: 16 }}>
      <Space wrap size={8} style={{ marginBottom: 8 }}>
        <Typography.Text>筛选条件：</Typography.Text>
        <Radio.Group
          size="small"
          value={explicit ? 'custom' : 'default'}
          onChange={(e) => {
            if (e.target.value === 'default') onDefault();
          }}
          options={[
            { value: 'default', label: '默认（显示的单选类字段）' },
            { value: 'custom', label: '自定义', disabled: !explicit },
          ]}
          data-testid="filter-mode"
        />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          在字段表格的“筛选”列勾选字段即为自定义
        </Typography.Text>
      </Space>
      {definition.displayList.length ? (
        <FilterCard definition={definition} tags={shownTags} onChange={setTags} testId="filter-preview-card" />
      ) : (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description="没有筛选条件，列表不显示筛选卡片"
          data-testid="filter-preview-empty"
        />
      )}
      {notes.length ? (
        <ul style={{ margin: 0, paddingLeft: 20, fontSize: 12, color: '#8c8c8c' }} data-testid="filter-notes">
          {notes.map((n) => (
            <li key={n.code}>
              {n.name}（{n.code}）：{n.text}
            </li>
          ))}
        </ul>
      ) : null}
    </Card>
  );
}
