import type { ChartData } from '@ks/contracts';
import { Alert, Card, Col, Row } from 'antd';
import { Chart } from '../../components/charts/Chart';

/** The node's charts, two to a row on wide screens. */
export default function NodeChartsGrid({ charts }: { charts: ChartData[] }) {
  return (
    <Card size="small" title="统计图表" style={{ marginBottom: 12 }} data-testid="node-charts">
      <Row gutter={[16, 16]}>
        {charts.map((c) => (
          <Col key={`${c.title}:${c.dimension}:${c.measure}:${c.type}`} xs={24} xl={charts.length === 1 ? 24 : 12}>
            <div style={{ fontWeight: 500, marginBottom: 4 }}>{c.title}</div>
            {c.problem ? (
              <Alert type="warning" showIcon title={c.problem} />
            ) : (
              <Chart
                type={c.type}
                categories={c.categories}
                series={[{ name: c.title, values: c.values }]}
                label={c.title}
                height={240}
                emptyText="暂无记录"
                testId="node-chart"
              />
            )}
          </Col>
        ))}
      </Row>
    </Card>
  );
}
