import { appToday, VENUE_STATUS_LABELS, type VenueBooking, type VenueRoom } from '@ks/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, Form, Input, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { LoadFailure } from '../../components/admin';
import { useCurrentUser } from '../../lib/sessionHooks';
import { availabilityQuery, bookingsQuery, bookVenue, roomsQuery, VENUE_KEY } from './api';
import { CancelDialog } from './BookingDialogs';
import { cellOf, overlaps, timeSpan } from './calendar';
import { rangeOf, type SlotValues, TimeRangeFields } from './TimeRangeFields';

export interface VenueBookingPanelProps {
  /** the tender section the bookings are for (the five-in-one project's 场地预约 tab); its bookings only */
  sectionId?: string;
  /** what the subject field starts with, e.g. the section's name + 开标 */
  subject?: string;
}

interface FormValues extends SlotValues {
  subject?: string;
}

/** How many days of own bookings the list shows (from today). */
const LIST_DAYS = 31;

/**
 * Book a room and see (and cancel) one's bookings. Used by the booking page `/meetingVenue/booking` and meant for the
 * five-in-one project detail's 场地预约 tab (`sectionId`, `subject`). The chosen room's day shows its busy slots before
 * one submits; the server still decides — a slot taken meanwhile answers 409 该场地在所选时段已被预约, shown above the
 * form.
 */
export function VenueBookingPanel({ sectionId, subject }: VenueBookingPanelProps) {
  const [form] = Form.useForm<FormValues>();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const rooms = useQuery(roomsQuery);
  const today = appToday();
  const listBody = { from: today, days: LIST_DAYS, withCancelled: true, ...(sectionId ? { sectionId } : {}) };
  const mine = useQuery(bookingsQuery(listBody));
  const [cancelling, setCancelling] = useState<VenueBooking | null>(null);
  const { isDeveloper, isAdmin } = useCurrentUser();
  const seesAll = isDeveloper || isAdmin;
  const values = Form.useWatch([], form) as FormValues | undefined;
  const day = values?.date?.format('YYYY-MM-DD');
  const busy = useQuery({ ...availabilityQuery(day ?? today, 1), enabled: !!day });
  const roomBusy = day && values?.roomId && busy.data ? cellOf(busy.data.busy, values.roomId, day) : [];
  const asked = values ? rangeOf(values) : null;
  const clash = asked ? roomBusy.some((b) => overlaps(b, asked)) : false;

  const submit = useMutation({
    mutationFn: async (v: FormValues) => {
      const r = rangeOf(v)!;
      return bookVenue({ roomId: v.roomId!, ...r, subject: v.subject ?? '', ...(sectionId ? { sectionId } : {}) });
    },
    onMutate: () => setError(null),
    onSuccess: (b) => {
      void message.success(`已预约 ${b.roomName} ${b.startsAt}–${b.endsAt.slice(11)}`);
      form.resetFields(['start', 'end']);
      void qc.invalidateQueries({ queryKey: VENUE_KEY });
    },
    onError: (e: Error) => {
      setError(e.message);
      void qc.invalidateQueries({ queryKey: [...VENUE_KEY, 'availability'] });
    },
  });

  if (rooms.isError) return <LoadFailure error={rooms.error} what="场地" />;
  const roomList: VenueRoom[] = rooms.data?.rooms ?? [];

  return (
    <div style={{ display: 'grid', gridTemplateColumns: 'minmax(360px, 440px) minmax(0, 1fr)', gap: 16 }}>
      <Card title="预约场地" size="small" loading={rooms.isPending} data-testid="venue-book-card">
        {error ? (
          <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} data-testid="venue-book-error" />
        ) : null}
        {isDeveloper ? (
          <Alert type="info" showIcon title="开发者账号只能查看预约，不能预约。" style={{ marginBottom: 12 }} />
        ) : null}
        <Form<FormValues>
          form={form}
          disabled={isDeveloper}
          layout="vertical"
          initialValues={{ subject }}
          onFinish={(v) => submit.mutate(v)}
          requiredMark
        >
          <TimeRangeFields rooms={roomList} inline />
          {day && values?.roomId ? (
            <div style={{ marginBottom: 12 }} data-testid="venue-day-busy">
              <Typography.Text type="secondary">当日已占用：</Typography.Text>
              {roomBusy.length === 0 ? (
                <Tag color="green">全天空闲</Tag>
              ) : (
                roomBusy.map((b) => (
                  <Tag key={b.startsAt} color="red">
                    {timeSpan(b)}
                  </Tag>
                ))
              )}
              {clash ? (
                <div style={{ color: '#cf1322', marginTop: 4 }} data-testid="venue-clash-hint">
                  所选时段与已有预约重叠
                </div>
              ) : null}
            </div>
          ) : null}
          <Form.Item
            name="subject"
            label="预约事由"
            rules={[
              { required: true, whitespace: true, message: '请输入预约事由' },
              { max: 200, message: '最多 200 个字符' },
            ]}
            style={{ marginBottom: 12 }}
          >
            <Input data-testid="venue-subject" placeholder="如：××项目（一标段）开标" maxLength={200} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={submit.isPending} data-testid="venue-book-submit" block>
            预约
          </Button>
        </Form>
      </Card>
      <Card
        title={sectionId ? '本标段的场地预约' : seesAll ? '全部预约' : '我的预约'}
        size="small"
        extra={<Typography.Text type="secondary">{`${today} 起 ${LIST_DAYS} 天`}</Typography.Text>}
      >
        {mine.isError ? (
          <LoadFailure error={mine.error} what="预约" />
        ) : (
          <Table<VenueBooking>
            size="small"
            rowKey="id"
            loading={mine.isPending}
            dataSource={mine.data?.records ?? []}
            pagination={false}
            scroll={{ y: 420 }}
            locale={{ emptyText: <Empty description="暂无预约" image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
            data-testid="venue-my-bookings"
            columns={[
              { title: '场地', dataIndex: 'roomName', width: 110 },
              {
                title: '时间',
                width: 170,
                render: (_, b) => `${b.startsAt.slice(0, 10)} ${timeSpan(b)}`,
              },
              { title: '事由', dataIndex: 'subject', ellipsis: true },
              ...(seesAll
                ? [
                    {
                      title: '预约单位',
                      width: 150,
                      ellipsis: true,
                      render: (_: unknown, b: VenueBooking) => b.enterpriseName ?? '交易中心',
                    },
                  ]
                : []),
              {
                title: '状态',
                width: 80,
                render: (_, b) => (
                  <Tag color={b.status === 'booked' ? 'blue' : 'default'}>{VENUE_STATUS_LABELS[b.status]}</Tag>
                ),
              },
              {
                title: '操作',
                width: 80,
                render: (_, b) =>
                  b.operations.cancel ? (
                    <Button
                      type="link"
                      size="small"
                      danger
                      onClick={() => setCancelling(b)}
                      data-testid={`venue-cancel-${b.id}`}
                    >
                      取消
                    </Button>
                  ) : (
                    <Space>
                      {b.status === 'cancelled' ? (
                        <Typography.Text type="secondary" ellipsis={{ tooltip: b.cancelReason }}>
                          {b.cancelReason}
                        </Typography.Text>
                      ) : null}
                    </Space>
                  ),
              },
            ]}
          />
        )}
      </Card>
      <CancelDialog booking={cancelling} onClose={() => setCancelling(null)} />
    </div>
  );
}
