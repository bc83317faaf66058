import { CREDIT_CONDUCT_LABELS, type CreditConduct, type CreditRecordStatus, scoreText } from '@ks/contracts';
import { Card, Col, Descriptions, Empty, Row, Space, Statistic, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import type { CreditGrade, CreditInfo } from './api';

/** Presets of the record statuses (草稿 grey, 待审核 blue, 已通过 green, 已驳回 red, 已撤销 orange). */
export const STATUS_COLOR: Record<CreditRecordStatus, string> = {
  draft: 'default',
  submitted: 'processing',
  passed: 'success',
  rejected: 'error',
  revoked: 'warning',
};

export function StatusTag({ status, text }: { status: CreditRecordStatus; text: string }) {
  return (
    <Tag color={STATUS_COLOR[status]} data-testid="credit-status">
      {text}
    </Tag>
  );
}

export function ConductTag({ conduct }: { conduct: CreditConduct }) {
  return <Tag color={conduct === 'good' ? 'green' : 'volcano'}>{CREDIT_CONDUCT_LABELS[conduct]}</Tag>;
}

/** Points a record carries: +5 for good conduct, −3 for bad. */
export const signedPoints = (conduct: CreditConduct, points: number) =>
  `${conduct === 'good' ? '+' : '−'}${scoreText(points)}`;

/** A level as a coloured tag (the top levels green, the bottom red); no grade: 未评定. */
export function LevelTag({
  level,
  levels,
}: {
  level: string | null | undefined;
  levels?: readonly { title: string }[];
}) {
  if (!level) return <Tag data-testid="credit-level">未评定</Tag>;
  const i = levels?.findIndex((l) => l.title === level) ?? -1;
  const n = levels?.length ?? 0;
  const color = i < 0 || n === 0 ? 'blue' : i === 0 ? 'green' : i >= n - 1 ? 'red' : i >= n - 2 ? 'orange' : 'blue';
  return (
    <Tag color={color} data-testid="credit-level">
      {level}
    </Tag>
  );
}

const COUNT_TITLES: [keyof CreditInfo['counts'], string][] = [
  ['passed', '已通过'],
  ['submitted', '待审核'],
  ['draft', '草稿'],
  ['rejected', '已驳回'],
  ['revoked', '已撤销'],
];

/** The grade card: level, score and how it is made up (base + good − bad), validity, and records by status. */
export function GradeCard({ info, extra }: { info: CreditInfo; extra?: ReactNode }) {
  const g: CreditGrade | null = info.grade;
  return (
    <Card
      size="small"
      title={
        <Space>
          <span data-testid="grade-subject">{info.subject.name}</span>
          <Typography.Text type="secondary" style={{ fontWeight: 400 }}>
            {info.subject.code}
          </Typography.Text>
        </Space>
      }
      extra={extra}
      data-testid="grade-card"
    >
      {g ? (
        <Row gutter={16} align="middle">
          <Col flex="120px">
            <div style={{ textAlign: 'center' }}>
              <div
                style={{ fontSize: 34, fontWeight: 700, color: '#1362fc', lineHeight: 1.2 }}
                data-testid="grade-level"
              >
                {g.level}
              </div>
              <Typography.Text type="secondary">信用等级</Typography.Text>
            </div>
          </Col>
          <Col flex="110px">
            <Statistic title="信用分" value={scoreText(g.score)} data-testid="grade-score" />
          </Col>
          <Col flex="auto">
            <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }}>
              <Descriptions.Item label="基础分">{scoreText(g.baseScore)}</Descriptions.Item>
              <Descriptions.Item label="良好行为">
                <span style={{ color: '#389e0d' }}>+{scoreText(g.goodPoints)}</span>
              </Descriptions.Item>
              <Descriptions.Item label="不良行为">
                <span style={{ color: '#d4380d' }}>−{scoreText(g.badPoints)}</span>
              </Descriptions.Item>
              <Descriptions.Item label="计分记录">{g.countedRecords} 条</Descriptions.Item>
              <Descriptions.Item label="评定时间">{g.computedAt.slice(0, 10)}</Descriptions.Item>
              <Descriptions.Item label="有效期至">
                <span data-testid="grade-valid-until">{g.validUntil ?? '下次评定前'}</span>
              </Descriptions.Item>
            </Descriptions>
          </Col>
        </Row>
      ) : (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description="尚未评定信用等级：审核通过的信用记录计分后自动评定"
          data-testid="grade-none"
        />
      )}
      <Space size={16} wrap style={{ marginTop: 8 }} data-testid="grade-counts">
        {COUNT_TITLES.map(([k, t]) => (
          <Typography.Text key={k} type="secondary">
            {t} <Typography.Text strong>{info.counts[k] ?? 0}</Typography.Text>
          </Typography.Text>
        ))}
      </Space>
    </Card>
  );
}
