import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { attachmentTypes, menuNodes } from '../../db/schema';

/** Attachment types of the demo nodes (spec §3 attachment type), with the templates in ./templates. */
export const DEMO_ATTACHMENT_TYPES: Record<
  string,
  {
    annexNo: string;
    annexName: string;
    annexFormat: string;
    annexSize: number;
    isRequired: boolean;
    fileType: string;
    template?: string;
  }[]
> = {
  XYGL_ZYZC: [
    {
      annexNo: '01',
      annexName: '身份证（正反面）',
      annexFormat: 'jpg,jpeg,png,pdf',
      annexSize: 5,
      isRequired: true,
      fileType: 'image',
    },
    {
      annexNo: '02',
      annexName: '执业资格证书',
      annexFormat: 'pdf,jpg,png',
      annexSize: 10,
      isRequired: true,
      fileType: 'pdf',
    },
    {
      annexNo: '03',
      annexName: '执业注册申请表（盖章）',
      annexFormat: 'pdf',
      annexSize: 10,
      isRequired: true,
      fileType: 'pdf',
      template: 'zyzc-sqb.pdf',
    },
    {
      annexNo: '04',
      annexName: '其他证明材料',
      annexFormat: 'pdf,jpg,png,webp',
      annexSize: 20,
      isRequired: false,
      fileType: 'pdf',
    },
  ],
  DZBH_BHSQ: [
    {
      annexNo: '01',
      annexName: '营业执照',
      annexFormat: 'pdf,jpg,png',
      annexSize: 10,
      isRequired: true,
      fileType: 'image',
    },
    {
      annexNo: '02',
      annexName: '保函申请书（盖章）',
      annexFormat: 'pdf',
      annexSize: 10,
      isRequired: true,
      fileType: 'pdf',
      template: 'bhsq-sqs.pdf',
    },
    { annexNo: '03', annexName: '招标文件', annexFormat: 'pdf', annexSize: 100, isRequired: true, fileType: 'pdf' },
    {
      annexNo: '04',
      annexName: '其他材料',
      annexFormat: 'pdf,jpg,png,zip',
      annexSize: 50,
      isRequired: false,
      fileType: 'pdf',
    },
  ],
};

export async function seedAttachmentTypes(tx: Db): Promise<void> {
  const nodes = await tx
    .select({ id: menuNodes.id, gnCoding: menuNodes.gnCoding })
    .from(menuNodes)
    .where(inArray(menuNodes.gnCoding, Object.keys(DEMO_ATTACHMENT_TYPES)));
  const values = nodes.flatMap((n) =>
    (DEMO_ATTACHMENT_TYPES[n.gnCoding] ?? []).map((t, i) => ({
      ...t,
      template: t.template ?? null,
      nodeId: n.id,
      sort: i + 1,
    })),
  );
  if (values.length) await tx.insert(attachmentTypes).values(values).onConflictDoNothing();
}
