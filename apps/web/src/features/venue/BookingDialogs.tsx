import { VENUE_STATUS_LABELS, type VenueBooking, type VenueRoom } from '@ks/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  type ButtonProps,
  Descriptions,
  Drawer,
  Form,
  Input,
  Modal,
  Space,
  Tag,
  Timeline,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { bookVenue, cancelBooking, historyQuery, moveBooking, VENUE_KEY } from './api';
import { timeSpan } from './calendar';
import { rangeOf, type SlotValues, TimeRangeFields } from './TimeRangeFields';

/** Cancel a booking: a reason is required; the dialog's 确认取消 is the confirmation. */
export function CancelDialog({
  booking,
  onClose,
}: {
  booking: VenueBooking | null;
  onClose: (done?: boolean) => void;
}) {
  const [form] = Form.useForm<{ reason: string }>();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (booking) setError(null);
  }, [booking]);
  const run = useMutation({
    mutationFn: (reason: string) => cancelBooking({ id: booking!.id, reason, version: booking!.version }),
    onSuccess: () => {
      void message.success('预约已取消');
      void qc.invalidateQueries({ queryKey: VENUE_KEY });
      onClose(true);
    },
    onError: (e: Error) => {
      setError(e.message);
      void qc.invalidateQueries({ queryKey: VENUE_KEY });
    },
  });
  return (
    <Modal
      open={!!booking}
      title="取消预约"
      okText="确认取消"
      cancelText="返回"
      okButtonProps={{ danger: true, loading: run.isPending, 'data-testid': 'venue-cancel-ok' } as ButtonProps}
      onOk={() => form.submit()}
      onCancel={() => onClose()}
      destroyOnHidden
    >
      {booking ? (
        <>
          <Typography.Paragraph>
            确定取消 <b>{booking.roomName}</b> {booking.startsAt.slice(0, 10)} {timeSpan(booking)}{' '}
            的预约吗？取消后该时段将释放给其他单位预约。
          </Typography.Paragraph>
          {error ? <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} /> : null}
          <Form key={booking.id} form={form} layout="vertical" onFinish={(v) => run.mutate(v.reason.trim())}>
            <Form.Item
              name="reason"
              label="取消原因"
              rules={[
                { required: true, whitespace: true, message: '请输入取消原因' },
                { max: 200, message: '最多 200 个字符' },
              ]}
            >
              <Input.TextArea rows={3} maxLength={200} showCount data-testid="venue-cancel-reason" />
            </Form.Item>
          </Form>
        </>
      ) : null}
    </Modal>
  );
}

interface MoveValues extends SlotValues {
  reason?: string;
}

/** Move a booking to another time (and room): asks once more before it is sent. */
export function MoveDialog({
  booking,
  rooms,
  onClose,
}: {
  booking: VenueBooking | null;
  rooms: VenueRoom[];
  onClose: (done?: boolean) => void;
}) {
  const [form] = Form.useForm<MoveValues>();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (booking) setError(null);
  }, [booking]);
  const run = useMutation({
    mutationFn: (v: MoveValues) =>
      moveBooking({
        id: booking!.id,
        roomId: v.roomId,
        ...rangeOf(v)!,
        reason: v.reason?.trim() || undefined,
        version: booking!.version,
      }),
    onSuccess: (b) => {
      void message.success(`已改期至 ${b.roomName} ${b.startsAt.slice(0, 10)} ${timeSpan(b)}`);
      void qc.invalidateQueries({ queryKey: VENUE_KEY });
      onClose(true);
    },
    onError: (e: Error) => {
      setError(e.message);
      void qc.invalidateQueries({ queryKey: VENUE_KEY });
    },
  });
  const confirm = (v: MoveValues) => {
    const r = rangeOf(v)!;
    const room = rooms.find((x) => x.id === v.roomId)?.name ?? booking!.roomName;
    modal.confirm({
      title: '确认改期？',
      content: `${booking!.roomName} ${booking!.startsAt.slice(0, 10)} ${timeSpan(booking!)} → ${room} ${r.startsAt.slice(0, 10)} ${timeSpan(r)}`,
      okText: '确认改期',
      cancelText: '返回',
      okButtonProps: { 'data-testid': 'venue-move-confirm' } as ButtonProps,
      onOk: () => run.mutateAsync(v).catch(() => undefined),
    });
  };
  return (
    <Modal
      open={!!booking}
      title="改期"
      okText="改期"
      cancelText="返回"
      okButtonProps={{ loading: run.isPending, 'data-testid': 'venue-move-ok' } as ButtonProps}
      onOk={() => form.submit()}
      onCancel={() => onClose()}
      destroyOnHidden
    >
      {error ? (
        <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} data-testid="venue-move-error" />
      ) : null}
      <Form
        key={booking?.id ?? ''}
        form={form}
        layout="vertical"
        onFinish={confirm}
        initialValues={
          booking
            ? {
                roomId: booking.roomId,
                date: dayjs(booking.startsAt.slice(0, 10)),
                start: booking.startsAt.slice(11),
                end: booking.endsAt.slice(11),
              }
            : undefined
        }
      >
        <TimeRangeFields rooms={rooms} />
        <Form.Item name="reason" label="改期原因" rules={[{ max: 200, message: '最多 200 个字符' }]}>
          <Input.TextArea rows={2} maxLength={200} data-testid="venue-move-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** `第一开标室 2026-11-30 09:00–11:00` of a history line. */
const slotText = (room: string | null, startsAt: string | null, endsAt: string | null) =>
  `${room ?? ''} ${startsAt?.slice(0, 10) ?? ''} ${startsAt?.slice(11) ?? ''}–${endsAt?.slice(11) ?? ''}`;

/** A booking's details and history, with 改期 / 取消预约 when the server allows them. */
export function BookingDrawer({
  booking,
  rooms,
  onClose,
}: {
  booking: VenueBooking | null;
  rooms: VenueRoom[];
  onClose: () => void;
}) {
  const [moving, setMoving] = useState<VenueBooking | null>(null);
  const [cancelling, setCancelling] = useState<VenueBooking | null>(null);
  const history = useQuery({ ...historyQuery(booking?.id ?? ''), enabled: !!booking });
  const done = (changed?: boolean) => {
    setMoving(null);
    setCancelling(null);
    if (changed) onClose();
  };
  return (
    <>
      <Drawer
        open={!!booking}
        title="预约详情"
        size={480}
        onClose={onClose}
        destroyOnHidden
        extra={
          booking ? (
            <Space>
              <Button disabled={!booking.operations.move} onClick={() => setMoving(booking)} data-testid="venue-move">
                改期
              </Button>
              <Button
                danger
                disabled={!booking.operations.cancel}
                onClick={() => setCancelling(booking)}
                data-testid="venue-cancel"
              >
                取消预约
              </Button>
            </Space>
          ) : null
        }
      >
        {booking ? (
          <div data-testid="venue-detail">
            <Descriptions column={1} size="small" bordered styles={{ label: { width: 96 } }}>
              <Descriptions.Item label="场地">{booking.roomName}</Descriptions.Item>
              <Descriptions.Item label="时间">
                {booking.startsAt.slice(0, 10)} {timeSpan(booking)}
              </Descriptions.Item>
              <Descriptions.Item label="事由">{booking.subject}</Descriptions.Item>
              <Descriptions.Item label="预约人">{booking.bookedBy}</Descriptions.Item>
              <Descriptions.Item label="预约单位">{booking.enterpriseName ?? '交易中心'}</Descriptions.Item>
              <Descriptions.Item label="状态">
                <Tag color={booking.status === 'booked' ? 'blue' : 'default'}>
                  {VENUE_STATUS_LABELS[booking.status]}
                </Tag>
              </Descriptions.Item>
              <Descriptions.Item label="预约时间">
                {dayjs(booking.createdAt).format('YYYY-MM-DD HH:mm')}
              </Descriptions.Item>
              {booking.cancelReason ? (
                <Descriptions.Item label="取消原因">{booking.cancelReason}</Descriptions.Item>
              ) : null}
            </Descriptions>
            <Typography.Title level={5} style={{ marginTop: 20 }}>
              预约记录
            </Typography.Title>
            {history.isError ? (
              <Alert type="error" showIcon title="预约记录加载失败" description={history.error.message} />
            ) : (
              <Timeline
                data-testid="venue-history"
                items={(history.data?.records ?? []).map((h, i) => ({
                  key: i,
                  color: h.action === '取消' ? 'gray' : h.action === '改期' ? 'orange' : 'blue',
                  content: (
                    <div>
                      <b>{h.action}</b> · {h.actorName} · {h.at}
                      <div style={{ color: '#595959' }}>
                        {h.action === '预约'
                          ? slotText(h.roomName, h.startsAt, h.endsAt)
                          : h.action === '改期'
                            ? `${slotText(h.fromRoomName, h.fromStartsAt, h.fromEndsAt)} → ${slotText(h.roomName, h.startsAt, h.endsAt)}`
                            : slotText(h.fromRoomName, h.fromStartsAt, h.fromEndsAt)}
                        {h.reason ? `（原因：${h.reason}）` : ''}
                      </div>
                    </div>
                  ),
                }))}
              />
            )}
          </div>
        ) : null}
      </Drawer>
      <MoveDialog booking={moving} rooms={rooms} onClose={done} />
      <CancelDialog booking={cancelling} onClose={done} />
    </>
  );
}

interface NewValues extends SlotValues {
  subject?: string;
}

/** Book from the calendar: a room and day may come from the cell clicked. */
export function NewBookingDialog({
  target,
  rooms,
  onClose,
}: {
  target: { roomId?: string; date?: string } | null;
  rooms: VenueRoom[];
  onClose: () => void;
}) {
  const [form] = Form.useForm<NewValues>();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (target) setError(null);
  }, [target]);
  const run = useMutation({
    mutationFn: (v: NewValues) => bookVenue({ roomId: v.roomId!, ...rangeOf(v)!, subject: v.subject ?? '' }),
    onSuccess: (b) => {
      void message.success(`已预约 ${b.roomName} ${b.startsAt.slice(0, 10)} ${timeSpan(b)}`);
      void qc.invalidateQueries({ queryKey: VENUE_KEY });
      onClose();
    },
    onError: (e: Error) => {
      setError(e.message);
      void qc.invalidateQueries({ queryKey: VENUE_KEY });
    },
  });
  return (
    <Modal
      open={!!target}
      title="新建预约"
      okText="预约"
      cancelText="取消"
      okButtonProps={{ loading: run.isPending, 'data-testid': 'venue-new-ok' } as ButtonProps}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {error ? (
        <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} data-testid="venue-new-error" />
      ) : null}
      <Form
        key={`${target?.roomId ?? ''}${target?.date ?? ''}`}
        form={form}
        layout="vertical"
        onFinish={(v) => run.mutate(v)}
        initialValues={{ roomId: target?.roomId, date: target?.date ? dayjs(target.date) : undefined }}
      >
        <TimeRangeFields rooms={rooms} />
        <Form.Item
          name="subject"
          label="预约事由"
          rules={[
            { required: true, whitespace: true, message: '请输入预约事由' },
            { max: 200, message: '最多 200 个字符' },
          ]}
        >
          <Input maxLength={200} placeholder="如：××项目（一标段）开标" data-testid="venue-new-subject" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
