import { appToday } from '@ks/contracts';
import { Card, Col, DatePicker, Row, Segmented, Select, Space, Statistic } from 'antd';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { formatCount } from '../../lib/format';

/** The cities of Shanxi (and the province's own level), as enterprises and projects name them. */
export const SHANXI_REGIONS = [
  '省本级',
  '太原市',
  '大同市',
  '朔州市',
  '忻州市',
  '阳泉市',
  '吕梁市',
  '晋中市',
  '长治市',
  '晋城市',
  '临汾市',
  '运城市',
] as const;

export const STATS_PAGES = [
  { value: '/custom/statistics', label: '交易统计' },
  { value: '/custom/completeCount', label: '办件与待办统计' },
  { value: '/custom/viewProgress', label: '办理进度' },
] as const;

export const SECTION = { title: '统计分析' };

export interface Period {
  startMonth: string;
  endMonth: string;
  region?: string;
}

export function thisYear(): Period {
  const y = appToday().slice(0, 4);
  return { startMonth: `${y}-01`, endMonth: `${y}-12` };
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The period a link asked for (?startMonth=&endMonth=&region=), else the current year. */
export function usePeriodParam(): Period {
  const [params] = useSearchParams();
  const year = thisYear();
  const start = params.get('startMonth') ?? '';
  const end = params.get('endMonth') ?? '';
  const region = params.get('region')?.trim() || undefined;
  if (MONTH.test(start) && MONTH.test(end) && start <= end) return { startMonth: start, endMonth: end, region };
  return { ...year, region };
}

/** The three statistics pages, one click apart. */
export function StatsNav({ current }: { current: (typeof STATS_PAGES)[number]['value'] }) {
  const navigate = useNavigate();
  return (
    <Segmented
      style={{ marginBottom: 16 }}
      value={current}
      options={STATS_PAGES.map((p) => ({ ...p }))}
      onChange={(v) => navigate(String(v))}
      data-testid="stats-nav"
    />
  );
}

/** The period (month range) and region every statistic is filtered by, plus what a page adds. */
export function PeriodBar({
  value,
  onChange,
  regions,
  extra,
}: {
  value: Period;
  onChange: (p: Period) => void;
  regions?: readonly string[];
  extra?: ReactNode;
}) {
  const options = [...new Set([...(regions ?? []), ...SHANXI_REGIONS])];
  return (
    <Space wrap style={{ marginBottom: 16 }} data-testid="stats-filters">
      <span>统计期间</span>
      <DatePicker.RangePicker
        picker="month"
        allowClear={false}
        value={[dayjs(`${value.startMonth}-01`), dayjs(`${value.endMonth}-01`)]}
        onChange={(v) => {
          if (v?.[0] && v[1])
            onChange({ ...value, startMonth: v[0].format('YYYY-MM'), endMonth: v[1].format('YYYY-MM') });
        }}
        data-testid="stats-period"
      />
      <span>地区</span>
      <Select
        allowClear
        placeholder="全部地区"
        style={{ width: 140 }}
        value={value.region}
        onChange={(region?: string) => onChange({ ...value, region: region || undefined })}
        options={options.map((r) => ({ value: r, label: r }))}
        data-testid="stats-region"
      />
      {extra}
    </Space>
  );
}

export interface Figure {
  title: string;
  value: number;
  suffix?: string;
  money?: boolean;
  testId: string;
  color?: string;
  onClick?: () => void;
}

/** Statistic cards in a row; a card with a click opens the records behind its number. */
export function Figures({ items, loading }: { items: Figure[]; loading: boolean }) {
  return (
    <Row gutter={16} style={{ marginBottom: 16 }}>
      {items.map((f) => (
        <Col key={f.testId} xs={24} sm={12} lg={24 / Math.min(items.length, 4)}>
          <Card size="small" hoverable={!!f.onClick} onClick={f.onClick} data-testid={f.testId}>
            <Statistic
              title={f.title}
              loading={loading}
              value={f.money ? f.value : formatCount(f.value)}
              precision={f.money ? 2 : undefined}
              suffix={f.suffix}
              valueStyle={f.color ? { color: f.color } : undefined}
            />
          </Card>
        </Col>
      ))}
    </Row>
  );
}

export const wan = (yuan: number) => Math.round(yuan / 100) / 100;
