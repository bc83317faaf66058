import type { Db } from '../db/client';
import { publishNotice, saveNotice } from '../modules/notices/system-notices.service';
import type { Actor } from '../platform/oplog';

const DAY = 86_400_000;

/**
 * Demo system notices, through the notices' own service: the trading centre's maintenance window scrolls in the bar for
 * everyone (a floating notice anyone may dismiss for good); a modal to the demo enterprise stays a draft, so no page
 * of the demo (nor an e2e spec) opens with a dialog over it.
 */
export async function seedSystemNotices(tx: Db, admin: Actor, now = new Date()): Promise<void> {
  const bar = await saveNotice(
    tx,
    admin,
    {
      type: 1,
      title: '系统例行维护通知',
      msg: '<p>山西省公共资源交易中心定于每周六 22:00 至次日 02:00 对交易平台进行例行维护，维护期间电子投标文件上传、保函申请等业务暂停办理，请合理安排办理时间。咨询电话：0351-12345678。</p>',
      url: null,
      urlName: null,
      audience: 'everyone',
      roleCode: null,
      enterpriseIds: [],
      startAt: new Date(now.getTime() - DAY).toISOString(),
      endAt: new Date(now.getTime() + 365 * DAY).toISOString(),
    },
    now,
  );
  await publishNotice(tx, admin, bar.id, now);
  await saveNotice(
    tx,
    admin,
    {
      type: 2,
      title: '关于启用电子营业执照登录的通知',
      msg: '<p>各市场主体：</p><p>自下月 1 日起，交易平台支持使用电子营业执照扫码登录，原 CA 数字证书可继续使用。请各企业提前完成电子营业执照的领取与授权。</p><p>山西省公共资源交易中心</p>',
      url: null,
      urlName: null,
      audience: 'everyone',
      roleCode: null,
      enterpriseIds: [],
      startAt: new Date(now.getTime() + 7 * DAY).toISOString(),
      endAt: new Date(now.getTime() + 37 * DAY).toISOString(),
    },
    now,
  );
}
