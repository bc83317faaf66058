import { paths } from './paths';
import {
  venueAvailabilitySchema,
  venueBookingListSchema,
  venueBookingPageSchema,
  venueBookingSchema,
  venueBookSchema,
  venueCancelSchema,
  venueHistoryQuerySchema,
  venueHistorySchema,
  venueMoveSchema,
  venueRangeQuerySchema,
  venueRoomsSchema,
} from './venue';

const T = '场地预约';

/** Registry entries of venue booking (issue 16). */
export const venueApi = {
  venueRooms: {
    ...paths.venueRooms,
    summary: '场地列表（场地管理节点的记录：名称、类型、容纳人数、设备、位置、是否启用）',
    tag: T,
    auth: true,
    data: venueRoomsSchema,
  },
  venueAvailability: {
    ...paths.venueAvailability,
    summary: '公开的场地占用情况：from 起 days 天（1–31）内启用场地的已占用时段，不含预约人、单位与事由',
    tag: T,
    auth: false,
    query: venueRangeQuerySchema,
    data: venueAvailabilitySchema,
  },
  venueBookings: {
    ...paths.venueBookings,
    summary: '预约列表：管理员看全部，企业用户只看本单位的预约；按开始时间排序',
    tag: T,
    auth: true,
    body: venueBookingListSchema,
    data: venueBookingPageSchema,
  },
  venueBook: {
    ...paths.venueBook,
    summary:
      '预约场地（开放时间内、整点或半点、不早于现在）：与同一场地的有效预约时段重叠由数据库排他约束拒绝，409 该场地在所选时段已被预约',
    tag: T,
    auth: true,
    body: venueBookSchema,
    data: venueBookingSchema,
  },
  venueCancel: {
    ...paths.venueCancel,
    summary: '取消预约（本单位的预约或管理员；须填写原因），时段随即释放；记入预约历史与操作日志',
    tag: T,
    auth: true,
    body: venueCancelSchema,
    data: venueBookingSchema,
  },
  venueMove: {
    ...paths.venueMove,
    summary: '改期（新的时段，可换场地）：同样受排他约束，占用时 409；记入预约历史与操作日志',
    tag: T,
    auth: true,
    body: venueMoveSchema,
    data: venueBookingSchema,
  },
  venueHistory: {
    ...paths.venueHistory,
    summary: '一条预约的历史（预约、改期、取消：谁、何时、原因）',
    tag: T,
    auth: true,
    query: venueHistoryQuerySchema,
    data: venueHistorySchema,
  },
} as const;
