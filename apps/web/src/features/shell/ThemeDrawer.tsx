import type { Theme } from '@ks/contracts';
import { DRAWER_WIDTHS, MAX_ASIDE_WIDTH, MIN_ASIDE_WIDTH, THEME_DEFAULTS } from '@ks/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, ColorPicker, Divider, Drawer, Form, InputNumber, Segmented, Typography } from 'antd';
import { useEffect } from 'react';
import { saveTheme, THEME_KEY } from '../../api/shell';

/** The colour fields of the drawer, by section (spec §3 Theme). */
const SECTIONS: { title: string; fields: { name: keyof Theme; label: string }[] }[] = [
  { title: '整体', fields: [{ name: 'themeColor', label: '主题色' }] },
  {
    title: '顶部导航',
    fields: [
      { name: 'navBgColor', label: '导航背景色' },
      { name: 'navTextColor', label: '导航文字色' },
    ],
  },
  {
    title: '侧边栏',
    fields: [
      { name: 'asideBgColor', label: '侧边栏背景色' },
      { name: 'asideTextColor', label: '侧边栏文字色' },
      { name: 'asideActiveColor', label: '选中项颜色' },
    ],
  },
  {
    title: '表格',
    fields: [
      { name: 'tableBgColor', label: '表格背景色' },
      { name: 'tableTextColor', label: '表格文字色' },
    ],
  },
  {
    title: '卡片',
    fields: [
      { name: 'cardBgColor', label: '卡片背景色' },
      { name: 'cardTextColor', label: '卡片文字色' },
    ],
  },
];

/** ColorPicker gives a colour object; the form keeps #rrggbb. */
const hexOf = (color: { toHexString(): string }) => color.toHexString().slice(0, 7);

/** Form values (possibly half edited) as a whole theme: what is missing or out of range keeps the saved value. */
export function themeFromValues(values: Partial<Theme>, base: Theme): Theme {
  const out: Theme = { ...base };
  for (const key of Object.keys(THEME_DEFAULTS) as (keyof Theme)[]) {
    const v = values[key];
    if (v === undefined || v === null || v === '') continue;
    if (key === 'asideWidth') {
      const n = Number(v);
      if (Number.isInteger(n) && n >= MIN_ASIDE_WIDTH && n <= MAX_ASIDE_WIDTH) out.asideWidth = n;
    } else if (key === 'theme') {
      out.theme = v === 'dark' ? 'dark' : 'light';
    } else {
      (out as unknown as Record<string, unknown>)[key] = v;
    }
  }
  return out;
}

export interface ThemeDrawerProps {
  open: boolean;
  /** The theme as saved; the form starts from it each time the drawer opens. */
  saved: Theme;
  /** Live preview of the form (null: none). */
  onPreview(theme: Theme | null): void;
  /** Closes the drawer and drops any preview. */
  onClose(): void;
}

/** Theme settings (drawer 380 wide): mode, colours and sidebar width; 恢复默认 fills in the defaults, 保存 keeps it. */
export function ThemeDrawer({ open, saved, onPreview, onClose }: ThemeDrawerProps) {
  const [form] = Form.useForm<Theme>();
  const { message } = App.useApp();
  const queryClient = useQueryClient();

  useEffect(() => {
    if (open) form.setFieldsValue(saved);
  }, [open, saved, form]);

  const save = useMutation({
    mutationFn: saveTheme,
    onSuccess: (theme) => {
      queryClient.setQueryData(THEME_KEY, { ...THEME_DEFAULTS, ...theme });
      void message.success('保存成功');
      onClose();
    },
  });

  const restoreDefaults = () => {
    form.setFieldsValue({ ...THEME_DEFAULTS });
    onPreview({ ...THEME_DEFAULTS });
  };

  return (
    <Drawer
      title="主题设置"
      placement="right"
      size={DRAWER_WIDTHS.wide}
      open={open}
      onClose={onClose}
      forceRender
      footer={
        <div style={{ display: 'flex', justifyContent: 'flex-end', gap: 8 }}>
          <Button onClick={restoreDefaults} disabled={save.isPending} data-testid="theme-reset">
            恢复默认
          </Button>
          <Button type="primary" loading={save.isPending} onClick={() => form.submit()} data-testid="theme-save">
            保存
          </Button>
        </div>
      }
    >
      <div data-testid="theme-settings">
        <Form<Theme>
          form={form}
          layout="horizontal"
          labelCol={{ flex: '110px' }}
          colon={false}
          initialValues={saved}
          onValuesChange={(_, all) => onPreview(themeFromValues(all, saved))}
          onFinish={(values) => save.mutate(themeFromValues(values, saved))}
        >
          <Divider titlePlacement="start" plain style={{ marginTop: 0 }}>
            显示模式
          </Divider>
          <Form.Item name="theme" label="主题">
            <Segmented
              data-testid="theme-mode"
              options={[
                { label: '浅色', value: 'light' },
                { label: '深色', value: 'dark' },
              ]}
            />
          </Form.Item>
          {SECTIONS.map((section) => (
            <div key={section.title}>
              <Divider titlePlacement="start" plain>
                {section.title}
              </Divider>
              {section.fields.map((f) => (
                <Form.Item key={f.name} name={f.name} label={f.label} getValueFromEvent={hexOf}>
                  <ColorPicker format="hex" disabledAlpha showText data-testid={`theme-${f.name}`} />
                </Form.Item>
              ))}
              {section.title === '侧边栏' ? (
                <Form.Item
                  name="asideWidth"
                  label="侧边栏宽度"
                  rules={[
                    { required: true, message: '请输入侧边栏宽度' },
                    {
                      type: 'number',
                      min: MIN_ASIDE_WIDTH,
                      max: MAX_ASIDE_WIDTH,
                      message: `侧边栏宽度在 ${MIN_ASIDE_WIDTH} 到 ${MAX_ASIDE_WIDTH} 之间`,
                    },
                  ]}
                >
                  <InputNumber
                    min={MIN_ASIDE_WIDTH}
                    max={MAX_ASIDE_WIDTH}
                    precision={0}
                    step={10}
                    suffix="px"
                    style={{ width: 140 }}
                    data-testid="theme-asideWidth"
                  />
                </Form.Item>
              ) : null}
            </div>
          ))}
        </Form>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          修改会立即预览；保存后随账号保存，每次登录自动应用。
        </Typography.Text>
      </div>
    </Drawer>
  );
}
