import { COST_CHECK_LABELS, COST_RISK_LABELS, type CostPublicity, type CostRisk } from '@ks/contracts';
import { Alert, Descriptions, Empty, Table, Tag, Typography } from 'antd';
import { formatDateTime } from '../../lib/format';
import { RISK_COLORS } from './risk';

type Bidder = CostPublicity['bidders'][number];
type Pair = CostPublicity['pairs'][number];

const pct = (v: number) => `${(v * 100).toFixed(2)}%`;

/**
 * The permitted summary of a detection (公示, issue 18): each bidder's risk and which checks found something, the pairs
 * of bidders with findings — no evidence of anyone's file; for a bidder, the findings on its own file with their
 * evidence. The administrator's preview before publishing and the page bidders read show the same.
 */
export function PublicitySummary({ p }: { p: CostPublicity }) {
  const flagged = p.bidders.filter((b) => b.checks.length).length;
  return (
    <div data-testid="cost-publicity">
      <Descriptions size="small" column={2} bordered>
        <Descriptions.Item label="项目">{p.section.projectName}</Descriptions.Item>
        <Descriptions.Item label="标段">
          {p.section.code} {p.section.name}
        </Descriptions.Item>
        <Descriptions.Item label="检测完成">{formatDateTime(p.finishedAt)}</Descriptions.Item>
        <Descriptions.Item label="公示时间">
          {p.publishedAt ? (
            <span data-testid="cost-publicity-published">{formatDateTime(p.publishedAt)}</span>
          ) : (
            <Tag color="default">未公示</Tag>
          )}
        </Descriptions.Item>
        <Descriptions.Item label="检测结论" span={2}>
          共 {p.bidders.length} 家投标人，{flagged ? `${flagged} 家有发现` : '均未发现问题'}
          {p.pairs.length ? `，${p.pairs.length} 组投标人之间存在雷同或相同编制信息` : ''}
        </Descriptions.Item>
        <Descriptions.Item label="检测参数" span={2}>
          安全文明施工费不低于 {pct(p.settings.safetyRateMin)}，规费不低于 {pct(p.settings.feeRateMin)}
          ；综合单价低于中位数 {p.settings.lowPricePct}% 或高于 {p.settings.highPricePct}% 为异常；清单报价雷同{' '}
          {p.settings.similarPct}% 及以上；投标总价低于中位数 {p.settings.lowTotalPct}% 为异常偏低
        </Descriptions.Item>
      </Descriptions>

      {p.own ? (
        <>
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            本单位（{p.own.enterpriseName}）造价文件的发现
          </Typography.Title>
          {p.own.findings.length ? (
            <ul className="cost-findings" data-testid="cost-publicity-own">
              {p.own.findings.map((f) => (
                <li key={`${f.check}-${f.text}`}>
                  <Tag color={RISK_COLORS[f.risk]}>{COST_CHECK_LABELS[f.check]}</Tag>
                  {f.text}
                  {f.evidence.length ? (
                    <details>
                      <summary>证据（{f.evidence.length}）</summary>
                      <ul>
                        {f.evidence.map((e) => (
                          <li key={e}>{e}</li>
                        ))}
                      </ul>
                    </details>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : (
            <Typography.Text type="secondary" data-testid="cost-publicity-own">
              本单位造价文件自身未发现问题
            </Typography.Text>
          )}
        </>
      ) : null}

      <Typography.Title level={5} style={{ marginTop: 16 }}>
        各投标人检测结论
      </Typography.Title>
      <Table<Bidder>
        size="small"
        rowKey="enterpriseName"
        pagination={false}
        dataSource={p.bidders}
        data-testid="cost-publicity-bidders"
        columns={[
          { title: '投标人', dataIndex: 'enterpriseName', width: 240 },
          {
            title: '风险',
            dataIndex: 'risk',
            width: 90,
            render: (v: CostRisk, b) =>
              b.checks.length ? <Tag color={RISK_COLORS[v]}>{COST_RISK_LABELS[v]}</Tag> : <Tag>未发现问题</Tag>,
          },
          {
            title: '发现的类别',
            key: 'checks',
            render: (_, b) =>
              b.checks.length ? (
                b.checks.map((c) => (
                  <Tag key={c.check}>
                    {COST_CHECK_LABELS[c.check]}
                    {c.count > 1 ? ` × ${c.count}` : ''}
                  </Tag>
                ))
              ) : (
                <Typography.Text type="secondary">—</Typography.Text>
              ),
          },
        ]}
      />

      <Typography.Title level={5} style={{ marginTop: 16 }}>
        投标人之间
      </Typography.Title>
      {p.pairs.length ? (
        <Table<Pair>
          size="small"
          rowKey={(r) => `${r.a}|${r.b}`}
          pagination={false}
          dataSource={p.pairs}
          data-testid="cost-publicity-pairs"
          columns={[
            { title: '投标人', key: 'who', render: (_, r) => `${r.a} 与 ${r.b}` },
            { title: '清单报价雷同度', dataIndex: 'score', width: 130, render: (v: number) => `${v}%` },
            {
              title: '风险',
              dataIndex: 'risk',
              width: 90,
              render: (v: CostRisk) => <Tag color={RISK_COLORS[v]}>{COST_RISK_LABELS[v]}</Tag>,
            },
            {
              title: '发现的类别',
              key: 'checks',
              render: (_, r) =>
                r.checks.map((c) => (
                  <Tag key={c} color="red">
                    {COST_CHECK_LABELS[c]}
                  </Tag>
                )),
            },
          ]}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="投标人之间未发现雷同或相同的编制信息" />
      )}
      <Alert
        style={{ marginTop: 16 }}
        type="info"
        showIcon
        title="公示内容仅含检测结论与发现的类别，不含各投标人的报价、清单与编制信息。对检测结果有异议的，请与交易中心联系。"
      />
    </div>
  );
}
