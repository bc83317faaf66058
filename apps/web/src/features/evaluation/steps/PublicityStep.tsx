import { NotificationOutlined, TrophyOutlined } from '@ant-design/icons';
import { EVAL_MSG, type EvalObjection, type EvalOutcome, type EvalRoom } from '@ks/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Descriptions, Empty, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { evalAward, evalObjectionAnswer, evalRoomKey, setRoom } from '../../../api/evaluation';
import { formatDateTime } from '../../../lib/format';
import { PublishDialog } from '../dialogs';
import {
  AwardNoticeButton,
  CandidatesTable,
  NoticeLink,
  ObjectionsTable,
  OutcomeTextDialog,
  PublicityPeriod,
} from '../outcome';
import { ConfirmButton, formatSeconds, useRoomAction } from '../parts';

type Publicity = NonNullable<EvalOutcome['publicity']>;

/** The candidates, the deadline to publish them, and (published) the period and the portal notice. */
function CandidatesCard({ room, outcome, onPublish }: { room: EvalRoom; outcome: EvalOutcome; onPublish: () => void }) {
  const p = outcome.publicity;
  const overdue = !p && outcome.publishBy !== null && Date.parse(room.now) > Date.parse(outcome.publishBy);
  return (
    <Card
      size="small"
      title="中标候选人"
      extra={
        room.actions.publish && (
          <Button type="primary" icon={<NotificationOutlined />} onClick={onPublish} data-testid="eval-publish">
            发布中标候选人公示
          </Button>
        )
      }
    >
      <Descriptions
        size="small"
        column={{ xs: 1, md: 2 }}
        style={{ marginBottom: 12 }}
        items={[
          {
            key: 'publishBy',
            label: '最迟公示时间',
            children: (
              <Space size={6} wrap>
                <span data-testid="eval-publish-by">{outcome.publishBy ? formatDateTime(outcome.publishBy) : '—'}</span>
                {overdue && <Tag color="warning">已超过公示期限，发布将记为逾期公示</Tag>}
              </Space>
            ),
          },
          {
            key: 'period',
            label: '公示期',
            children: p ? (
              <PublicityPeriod publicity={p} />
            ) : (
              <Typography.Text type="secondary" data-testid="eval-publicity-none">
                尚未公示
              </Typography.Text>
            ),
          },
          ...(p
            ? [
                {
                  key: 'notice',
                  label: '公示公告',
                  children: (
                    <NoticeLink id={p.noticeId} testId="eval-publicity-notice">
                      查看中标候选人公示
                    </NoticeLink>
                  ),
                },
              ]
            : []),
        ]}
      />
      <CandidatesTable candidates={outcome.candidates} winnerId={outcome.award?.bidId} />
    </Card>
  );
}

/** The bidders' objections during the publicity, each answered by the host. */
function ObjectionsCard({ room, outcome }: { room: EvalRoom; outcome: EvalOutcome }) {
  const sectionId = room.section.id;
  const qc = useQueryClient();
  const { message } = App.useApp();
  const [answering, setAnswering] = useState<EvalObjection | null>(null);
  const open = outcome.objections.filter((o) => !o.answer).length;
  const answer = async (text: string) => {
    if (!answering) return;
    try {
      setRoom(qc, await evalObjectionAnswer({ id: answering.id, answer: text }));
      void message.success('答复已记录');
    } catch (err) {
      void qc.invalidateQueries({ queryKey: evalRoomKey(sectionId) });
      throw err;
    }
  };
  return (
    <Card
      size="small"
      title={`异议（${outcome.objections.length}）`}
      extra={open > 0 && <Tag color="warning">{open} 条待答复</Tag>}
    >
      <ObjectionsTable objections={outcome.objections} onAnswer={room.actions.answer ? setAnswering : undefined} />
      <OutcomeTextDialog
        open={answering !== null}
        title="答复异议"
        label="答复"
        hint={
          answering && (
            <Typography.Paragraph type="secondary" style={{ margin: 0 }} className="eval-text">
              {answering.enterpriseName}（{answering.userName}，{formatSeconds(answering.at)}）：{answering.text}
            </Typography.Paragraph>
          )
        }
        okText="提交答复"
        testId="answer"
        run={answer}
        onClose={() => setAnswering(null)}
      />
    </Card>
  );
}

/** Why the host cannot award yet (or, to the others, that it is the host's to do). */
function awardWaiting(room: EvalRoom, p: Publicity, outcome: EvalOutcome): string {
  if (p.running) return `公示期至 ${formatDateTime(p.end)} 结束，结束后方可确定中标人`;
  if (outcome.objections.some((o) => !o.answer)) return EVAL_MSG.openObjections;
  return room.role === 'host' ? '暂不能确定中标人' : '等待招标人确定中标人';
}

/** 定标: the award (the first candidate wins), its result notice and the 中标通知书. */
function AwardCard({ room, outcome, publicity }: { room: EvalRoom; outcome: EvalOutcome; publicity: Publicity }) {
  const sectionId = room.section.id;
  const award = useRoomAction(sectionId, () => evalAward(sectionId), '中标人已确定，中标结果公告已发布');
  const won = outcome.award;
  return (
    <Card size="small" title="定标" data-testid="eval-award-card">
      {won ? (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          <Descriptions
            size="small"
            column={{ xs: 1, md: 3 }}
            items={[
              {
                key: 'winner',
                label: '中标人',
                children: (
                  <Typography.Text strong data-testid="eval-winner">
                    {won.enterpriseName}
                  </Typography.Text>
                ),
              },
              { key: 'at', label: '定标时间', children: formatSeconds(won.at) },
              {
                key: 'notice',
                label: '中标结果公告',
                children: (
                  <NoticeLink id={won.resultNoticeId} testId="eval-result-notice">
                    查看中标结果公告
                  </NoticeLink>
                ),
              },
            ]}
          />
          {room.actions.awardNotice && <AwardNoticeButton sectionId={sectionId} code={room.section.code} />}
        </Space>
      ) : (
        <Space wrap>
          {room.actions.award && (
            <ConfirmButton
              type="primary"
              icon={<TrophyOutlined />}
              title="确定中标人？"
              description="排名第一的中标候选人将被确定为中标人，并发布中标结果公告"
              onConfirm={() => award.mutateAsync(undefined)}
              loading={award.isPending}
              testId="eval-award"
            >
              确定中标人
            </ConfirmButton>
          )}
          {!room.actions.award && (
            <Typography.Text type="secondary" data-testid="eval-award-waiting">
              {awardWaiting(room, publicity, outcome)}
            </Typography.Text>
          )}
        </Space>
      )}
    </Card>
  );
}

/**
 * 中标候选人公示与定标: once the evaluation is done, the host publishes the candidates to the portal (within the legal
 * period after the report), answers the bidders' objections during the publicity, and afterwards awards the first
 * candidate; the 中标通知书 is then downloadable.
 */
export function PublicityStep({ room }: { room: EvalRoom }) {
  const [publishing, setPublishing] = useState(false);
  const outcome = room.outcome;
  if (!outcome) {
    return (
      <Card data-testid="eval-step-publicity">
        <Empty description="评标结束后方可公示中标候选人" data-testid="eval-outcome-none" />
      </Card>
    );
  }
  const p = outcome.publicity;
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="eval-step-publicity">
      <CandidatesCard room={room} outcome={outcome} onPublish={() => setPublishing(true)} />
      {p && <ObjectionsCard room={room} outcome={outcome} />}
      {p && <AwardCard room={room} outcome={outcome} publicity={p} />}
      <PublishDialog room={room} open={publishing} onClose={() => setPublishing(false)} />
    </Space>
  );
}
