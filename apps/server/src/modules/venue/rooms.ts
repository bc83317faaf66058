import { type FieldDef, VENUE_KINDS, VENUE_ROOM_NODE, type VenueRoom } from '@ks/contracts';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../../db/client';
import { menuNodes } from '../../db/schema';
import { ACCESSOR_LIST_MAX, type NodeRecord, nodeAccessor } from '../engine/accessor';

/**
 * Rooms are the records of the engine node 场地管理 (VENUE_ROOM_NODE): administrators add, edit and disable them in
 * the node's dynamic list. This module reads them through its one accessor; the fields below are what the seed
 * configures (an administrator may add more; these codes must stay).
 */
export const VENUE_ROOM_FIELDS: FieldDef[] = [
  { code: 'mc', name: '名称', type: 'text', required: 1, length: 100 },
  {
    code: 'lx',
    name: '类型',
    type: 'radio',
    required: 1,
    options: { list: VENUE_KINDS.map((k) => ({ label: k, value: k })) },
  },
  { code: 'rnrs', name: '容纳人数', type: 'input-number', required: 1 },
  {
    code: 'sb',
    name: '设备',
    type: 'checkbox',
    options: {
      list: ['投影仪', 'LED 大屏', '音响扩声', '录音录像', '视频监控', '电子评标终端', '屏蔽信号', '隔音'].map((p) => ({
        label: p,
        value: p,
      })),
    },
  },
  { code: 'wz', name: '位置', type: 'text', length: 100 },
  // switch-2 starts switched on: a room added is bookable until an administrator disables it
  { code: 'sfqy', name: '是否启用', type: 'switch-2' },
];

export const roomsNode = nodeAccessor(VENUE_ROOM_NODE, {
  mc: z.string().nullable(),
  lx: z.string().nullable(),
  rnrs: z.number().nullable(),
  sb: z.string().nullable(),
  wz: z.string().nullable(),
  sfqy: z.string().nullable(),
});

type RoomRecord = NodeRecord<{
  mc: string | null;
  lx: string | null;
  rnrs: number | null;
  sb: string | null;
  wz: string | null;
  sfqy: string | null;
}>;

export function roomOf(r: RoomRecord): VenueRoom {
  return {
    id: r.id,
    name: r.values.mc ?? '',
    kind: r.values.lx ?? '',
    capacity: r.values.rnrs,
    equipment: r.values.sb,
    location: r.values.wz,
    enabled: r.values.sfqy !== '0',
  };
}

/** Is the room node there with its fields configured? (a fresh install without the demo has no rooms yet) */
async function configured(q: DbOrTx): Promise<boolean> {
  const [n] = await q
    .select({ dataSource: menuNodes.dataSource, fieldsVersion: menuNodes.fieldsVersion })
    .from(menuNodes)
    .where(eq(menuNodes.gnCoding, VENUE_ROOM_NODE));
  return !!n && n.dataSource === 'engine' && n.fieldsVersion > 0;
}

const kindOrder = (k: string) => {
  const i = (VENUE_KINDS as readonly string[]).indexOf(k);
  return i < 0 ? VENUE_KINDS.length : i;
};

/** Every room (enabled or not): 开标室 first, then 评标室, each by location (floor and room number) and name. */
export async function listRooms(q: DbOrTx): Promise<VenueRoom[]> {
  if (!(await configured(q))) return [];
  const rows = await roomsNode.list(q, { limit: ACCESSOR_LIST_MAX });
  return rows
    .reverse()
    .map(roomOf)
    .filter((r) => r.name)
    .sort(
      (a, b) =>
        kindOrder(a.kind) - kindOrder(b.kind) ||
        (a.location ?? '').localeCompare(b.location ?? '', 'zh-CN', { numeric: true }) ||
        a.name.localeCompare(b.name, 'zh-CN', { numeric: true }),
    );
}

/** One room, or null. */
export async function roomById(q: DbOrTx, id: string): Promise<VenueRoom | null> {
  if (!(await configured(q))) return null;
  const r = await roomsNode.get(q, id);
  return r ? roomOf(r) : null;
}
