import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  CREDIT_LEVEL_TITLE_MAX,
  CREDIT_LEVELS_MAX,
  CREDIT_MESSAGES,
  CREDIT_SCORE_MAX,
  creditLevelsProblem,
  scoreText,
} from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Form, Input, InputNumber, Space, Typography } from 'antd';
import { FormDialog } from '../../components/admin';
import { type CreditLevelTitles, levelTitlesQuery, saveLevelTitles } from './api';

interface LevelForm {
  baseScore?: number | null;
  levels?: { title?: string; minScore?: number | null }[];
}

const twoDecimals = (n: number) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6;

/** The problem of the whole form (the contracts' rules, which the server checks again), or null. */
export function levelFormProblem(v: LevelForm): string | null {
  const b = v.baseScore;
  if (b === null || b === undefined || b < 0 || b > CREDIT_SCORE_MAX || !twoDecimals(b))
    return CREDIT_MESSAGES.baseScore;
  return creditLevelsProblem(
    (v.levels ?? []).map((l) => ({ title: l.title ?? '', minScore: l.minScore ?? Number.NaN })),
  );
}

/**
 * 等级设置 (administrators): the base score every subject starts from and the levels with their score floors, highest
 * first (2–10 levels, titles unique, floors strictly falling, the last 0). Saving re-levels every graded subject.
 */
export function LevelSettingsDialog({
  open,
  onClose,
  onSaved,
}: {
  open: boolean;
  onClose: () => void;
  onSaved: (v: CreditLevelTitles) => void;
}) {
  const [form] = Form.useForm<LevelForm>();
  const current = useQuery({ ...levelTitlesQuery, enabled: open });
  const levels = Form.useWatch('levels', form);
  const base = Form.useWatch('baseScore', form);
  const problem = open && levels ? levelFormProblem({ baseScore: base, levels }) : null;

  return (
    <FormDialog<LevelForm, CreditLevelTitles>
      open={open && Boolean(current.data)}
      subject={current.data}
      form={form}
      title="信用等级设置"
      values={() =>
        current.data
          ? {
              baseScore: current.data.baseScore,
              levels: current.data.levels.map((l) => ({ title: l.title, minScore: l.minScore })),
            }
          : undefined
      }
      fields={['baseScore']}
      okDisabled={Boolean(problem)}
      submit={(v) =>
        saveLevelTitles({
          baseScore: Number(v.baseScore),
          levels: (v.levels ?? []).map((l) => ({ title: l.title ?? '', minScore: Number(l.minScore) })),
        })
      }
      onClose={onClose}
      onSaved={onSaved}
      testId="levels-save"
      dialogTestId="levels-dialog"
      width={560}
      intro={
        <Typography.Paragraph type="secondary">
          信用分 = 基础分 + 有效的良好行为 − 有效的不良行为。等级按分数线从高到低排列，最低等级分数线为
          0；保存后所有已评定的企业和人员立即重新定级。
        </Typography.Paragraph>
      }
    >
      <Form.Item
        name="baseScore"
        label="基础分"
        rules={[
          {
            validator: async (_, v: number | null | undefined) => {
              if (v === null || v === undefined || v < 0 || v > CREDIT_SCORE_MAX || !twoDecimals(v))
                throw new Error(CREDIT_MESSAGES.baseScore);
            },
          },
        ]}
      >
        <InputNumber precision={2} style={{ width: 160 }} data-testid="levels-base" />
      </Form.Item>
      <Typography.Text strong>等级与分数线</Typography.Text>
      <Form.List name="levels">
        {(fields, { add, remove }) => (
          <div style={{ marginTop: 8 }} data-testid="levels-rows">
            {fields.map((f, i) => (
              <Space key={f.key} align="baseline" style={{ display: 'flex', marginBottom: 4 }}>
                <Form.Item name={[f.name, 'title']} style={{ marginBottom: 8 }}>
                  <Input
                    placeholder="等级名称"
                    maxLength={CREDIT_LEVEL_TITLE_MAX}
                    style={{ width: 140 }}
                    data-testid={`levels-title-${i}`}
                  />
                </Form.Item>
                <Typography.Text type="secondary">分数线 ≥</Typography.Text>
                <Form.Item name={[f.name, 'minScore']} style={{ marginBottom: 8 }}>
                  <InputNumber precision={2} style={{ width: 120 }} data-testid={`levels-min-${i}`} />
                </Form.Item>
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  disabled={fields.length <= 2}
                  onClick={() => remove(f.name)}
                  aria-label="删除等级"
                  data-testid={`levels-remove-${i}`}
                />
              </Space>
            ))}
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              disabled={fields.length >= CREDIT_LEVELS_MAX}
              onClick={() => add({ title: '', minScore: 0 })}
              data-testid="levels-add"
            >
              添加等级
            </Button>
          </div>
        )}
      </Form.List>
      {problem ? (
        <Alert type="warning" showIcon style={{ marginTop: 12 }} title={problem} data-testid="levels-problem" />
      ) : levels?.length ? (
        <Typography.Paragraph type="secondary" style={{ marginTop: 12 }} data-testid="levels-preview">
          {levels
            .map((l, i) => {
              const upper = levels[i - 1]?.minScore;
              return upper === undefined || upper === null
                ? `${l.title} ≥ ${scoreText(Number(l.minScore))}`
                : `${l.title} ${scoreText(Number(l.minScore))}–${scoreText(Number(upper))}`;
            })
            .join('；')}
        </Typography.Paragraph>
      ) : null}
    </FormDialog>
  );
}
