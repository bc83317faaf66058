import {
  EVALUATE_TYPES,
  type EvaluateType,
  FEEDBACK_CLOSE_DELAY_MS,
  FEEDBACK_MESSAGES,
  FEEDBACK_QUESTIONNAIRES,
  FEEDBACK_RATING_LABELS,
  FEEDBACK_TEXT_MAX,
} from '@ks/contracts';
import { App, Button, Drawer, Input, Rate, Space, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { submitFeedback } from '../../api/feedback';

/** Ratings as the drawer holds them: `${evaluateType}/${index}` → 1–5 (0 or absent: not rated). */
type Ratings = Record<string, number>;
const keyOf = (t: EvaluateType, i: number) => `${t}/${i}`;

/** The list the server takes (spec §7: a list of evaluateType and question, with the score): rated questions only. */
export function feedbackBody(ratings: Ratings, text: string) {
  const list = EVALUATE_TYPES.flatMap((t) =>
    FEEDBACK_QUESTIONNAIRES[t].questions.flatMap((question, i) => {
      const score = ratings[keyOf(t, i)] ?? 0;
      return score >= 1 ? [{ evaluateType: t, question, score }] : [];
    }),
  );
  // the text is sent only when it is not blank (spec §5)
  return text.trim() ? { list, text: text.trim() } : { list };
}

/**
 * The feedback drawer (screens 23, 24): the product and the service questionnaires, each question rated 1–5 with the
 * labels 不满意 … 非常完美, and a free text. 提交 sends what was rated; on success the thanks of §8 shows and the drawer
 * closes 800 ms later (the form starts empty next time). Failures show in the global prompt dialog.
 */
export function FeedbackDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { message } = App.useApp();
  const [ratings, setRatings] = useState<Ratings>({});
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const reset = () => {
    setRatings({});
    setText('');
  };

  const submit = async () => {
    if (sending) return;
    const body = feedbackBody(ratings, text);
    if (!body.list.length) {
      void message.warning(FEEDBACK_MESSAGES.nothingRated);
      return;
    }
    setSending(true);
    try {
      await submitFeedback(body);
      void message.success(FEEDBACK_MESSAGES.thanks);
      timer.current = setTimeout(() => {
        timer.current = null;
        setSending(false);
        reset();
        onClose();
      }, FEEDBACK_CLOSE_DELAY_MS);
    } catch {
      // shown by the global prompt dialog
      setSending(false);
    }
  };

  return (
    <Drawer
      title="意见反馈"
      placement="right"
      size={460}
      open={open}
      onClose={onClose}
      data-testid="feedback-drawer"
      footer={
        <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={sending} onClick={() => void submit()} data-testid="feedback-submit">
            提交
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
        请为以下问题评分（1–5 分），您的评价将帮助我们改进平台与服务。
      </Typography.Paragraph>
      {EVALUATE_TYPES.map((t) => (
        <section key={t} data-testid={`feedback-section-${t}`} style={{ marginBottom: 16 }}>
          <Typography.Title level={5} style={{ marginTop: 8 }}>
            {FEEDBACK_QUESTIONNAIRES[t].title}
          </Typography.Title>
          {FEEDBACK_QUESTIONNAIRES[t].questions.map((q, i) => {
            const value = ratings[keyOf(t, i)] ?? 0;
            return (
              <div key={q} style={{ padding: '6px 0', borderBottom: '1px dashed #eef0f4' }}>
                <div style={{ marginBottom: 2 }}>
                  {i + 1}. {q}
                </div>
                <Space size={12}>
                  <Rate
                    value={value}
                    onChange={(v) => setRatings((r) => ({ ...r, [keyOf(t, i)]: v }))}
                    tooltips={[...FEEDBACK_RATING_LABELS]}
                    data-testid={`feedback-rate-${t}-${i}`}
                    aria-label={q}
                  />
                  <span style={{ color: '#8a93a3', minWidth: 56, display: 'inline-block' }}>
                    {value ? FEEDBACK_RATING_LABELS[value - 1] : ''}
                  </span>
                </Space>
              </div>
            );
          })}
        </section>
      ))}
      <Typography.Title level={5}>意见建议</Typography.Title>
      <Input.TextArea
        rows={4}
        value={text}
        onChange={(e) => setText(e.target.value)}
        maxLength={FEEDBACK_TEXT_MAX}
        showCount
        placeholder="请填写您的意见或建议（选填）"
        data-testid="feedback-text"
      />
    </Drawer>
  );
}
