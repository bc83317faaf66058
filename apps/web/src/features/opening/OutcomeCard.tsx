import { AuditOutlined, TrophyOutlined } from '@ant-design/icons';
import type { EvalBidderOutcome } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Descriptions, Empty, Space, Typography } from 'antd';
import { useState } from 'react';
import { evalObjection, evalOutcomeKey, evalOutcomeQuery, setOutcome } from '../../api/evaluation';
import { useLiveEvent } from '../../lib/live';
import {
  AwardNoticeButton,
  BidderClarifications,
  CandidatesTable,
  NoticeLink,
  ObjectionsTable,
  OutcomeTextDialog,
  PublicityPeriod,
} from '../evaluation';

type Published = EvalBidderOutcome & { publicity: NonNullable<EvalBidderOutcome['publicity']> };

function PublishedOutcome({ outcome, onObject }: { outcome: Published; onObject: () => void }) {
  const { publicity, award, actions } = outcome;
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <Descriptions
        size="small"
        column={{ xs: 1, md: 2 }}
        items={[
          { key: 'period', label: '公示期', children: <PublicityPeriod publicity={publicity} /> },
          {
            key: 'notice',
            label: '公示公告',
            children: (
              <NoticeLink id={publicity.noticeId} testId="eval-publicity-notice">
                查看中标候选人公示
              </NoticeLink>
            ),
          },
          ...(award
            ? [
                {
                  key: 'winner',
                  label: '中标人',
                  children: (
                    <Space size={6} wrap>
                      <Typography.Text strong data-testid="eval-winner">
                        <TrophyOutlined /> {award.enterpriseName}
                      </Typography.Text>
                      <NoticeLink id={award.resultNoticeId} testId="eval-result-notice">
                        查看中标结果公告
                      </NoticeLink>
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      <CandidatesTable candidates={outcome.candidates} winnerId={award?.bidId} />
      <Typography.Title level={5} style={{ margin: 0 }}>
        本单位的异议
      </Typography.Title>
      <ObjectionsTable objections={outcome.objections} emptyText="本单位未提出异议" />
      {(actions.object || actions.awardNotice) && (
        <Space wrap>
          {actions.object && (
            <Button icon={<AuditOutlined />} onClick={onObject} data-testid="eval-object">
              提出异议
            </Button>
          )}
          {actions.awardNotice && <AwardNoticeButton sectionId={outcome.section.id} code={outcome.section.code} />}
        </Space>
      )}
    </Space>
  );
}

/**
 * 评标结果 in the opening hall, for a bidder once the opening has closed: the committee's requests for clarification
 * (answered here); nothing else of the evaluation before the candidates are published; then the candidates, the publicity period, the bidder's own objections with their answers
 * (and 提出异议 during the period), the winner once awarded and, for the winner, the 中标通知书. Nothing at all when the
 * server knows the caller as no bidder of the section (404). Re-read on the live `evaluation` event of the section.
 */
export function OutcomeCard({ sectionId }: { sectionId: string }) {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const query = useQuery(evalOutcomeQuery(sectionId));
  const [objecting, setObjecting] = useState(false);
  const reload = () => void qc.invalidateQueries({ queryKey: evalOutcomeKey(sectionId) });
  useLiveEvent('evaluation', (d) => {
    if (d.sectionId === sectionId) reload();
  });
  const outcome = query.data;
  if (query.isLoading) return <Card size="small" title="评标结果" loading style={{ marginBottom: 12 }} />;
  // a 404 (null), or a failure the request client has already reported
  if (!outcome) return null;
  const publicity = outcome.publicity;
  const object = async (text: string) => {
    try {
      setOutcome(qc, await evalObjection({ sectionId, text }));
      void message.success('异议已提交');
    } catch (err) {
      reload();
      throw err;
    }
  };
  return (
    <Card size="small" title="评标结果" style={{ marginBottom: 12 }} data-testid="eval-outcome-card">
      <BidderClarifications outcome={outcome} />
      {publicity ? (
        <PublishedOutcome outcome={{ ...outcome, publicity }} onObject={() => setObjecting(true)} />
      ) : (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description="评标结果尚未公示"
          data-testid="eval-outcome-unpublished"
        />
      )}
      <OutcomeTextDialog
        open={objecting}
        title="提出异议"
        label="异议内容"
        hint={
          <Typography.Text type="secondary">
            公示期内可对中标候选人提出异议，异议及招标人的答复记入开评标日志。
          </Typography.Text>
        }
        okText="提交异议"
        testId="objection"
        run={object}
        onClose={() => setObjecting(false)}
      />
    </Card>
  );
}
