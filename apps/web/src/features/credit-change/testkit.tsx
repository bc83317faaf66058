import {
  type LoginRoleType,
  paths,
  RFC_MESSAGES,
  RFC_STATUS_LABELS,
  type RfcChangeFields,
  type RfcChangeRecord,
  type RfcChangeTypeNode,
  type RfcContact,
  type RfcFile,
  rfcMayStartRound,
  rfcOperations,
  rfcSaveProblem,
  SESSION_KEYS,
} from '@ks/contracts';
import { screen, waitFor } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { vi } from 'vitest';
import { configureRequest, type TransportRequest } from '../../api/request';
import { renderRoutes } from '../../test/render';
import { createFakeServer, type Handler, userInfo } from '../../test/server';
import { ChangeDialog, type ChangeDialogProps } from './ChangeDialog';
import { kindOf } from './model';

/** Fixtures and a stateful fake of the /ks/rfc calls for the change dialog's tests (test-only module). */

export type User = ReturnType<typeof userEvent.setup>;

export const uid = (n: number) => `00000000-0000-4000-b000-${String(n).padStart(12, '0')}`;
export const BUSINESS_ID = uid(1);
export const ENTERPRISE_ID = uid(2);
export const AREA = 'XYGL_XYJL';

export const TYPES: RfcChangeTypeNode[] = [
  {
    value: 'info',
    label: '信息变更',
    kind: 'info',
    children: [{ value: 'record', label: '信用记录信息', kind: 'info' }],
  },
  { value: 'time', label: '时间变更', kind: 'time', children: [{ value: 'validity', label: '有效期', kind: 'time' }] },
  {
    value: 'contact',
    label: '联系人变更',
    kind: 'contact',
    children: [{ value: 'person', label: '企业联系人', kind: 'contact' }],
  },
];

export const CONTACTS: RfcContact[] = [
  { id: uid(31), ry_name: '王建军', ryName: '王建军', tel: '13803510001' },
  { id: uid(32), ry_name: '李晓燕', ryName: '李晓燕', tel: '13903510002' },
];

/** The before/after form of a credit record: the standard 合同履约良好 (highest 5) in group 良好行为. */
export function creditFields(over: Partial<RfcChangeFields> = {}): RfcChangeFields {
  const map = {
    start_time: '2026-01-01',
    end_time: '2027-12-31',
    score: '3',
    xx_grouping: '良好行为',
    standard: uid(41),
    enclosure: '/ks/file/a.pdf',
  };
  return {
    map,
    fields: [
      {
        code: 'start_time',
        bianma: 'start_time',
        name: '开始时间',
        type: 'date',
        readonly: false,
        required: true,
        col: 12,
      },
      {
        code: 'end_time',
        bianma: 'end_time',
        name: '结束时间',
        type: 'date',
        readonly: false,
        required: false,
        col: 12,
      },
      {
        code: 'score',
        bianma: 'score',
        name: '分值',
        type: 'number',
        readonly: false,
        required: true,
        col: 12,
        highest: 5,
      },
      {
        code: 'xx_grouping',
        bianma: 'xx_grouping',
        name: '信用类别',
        type: 'select',
        readonly: true,
        required: true,
        col: 12,
        options: [{ value: '良好行为', label: '良好行为' }],
      },
      {
        code: 'standard',
        bianma: 'standard_id',
        name: '信用标准',
        type: 'select',
        readonly: false,
        required: true,
        col: 12,
        options: [
          { value: uid(41), label: '合同履约良好', group: '良好行为', highest: 5 },
          { value: uid(42), label: '省级优质工程奖', group: '良好行为', highest: 8 },
        ],
      },
      {
        code: 'enclosure',
        bianma: 'enclosure',
        name: '证明材料',
        type: 'file',
        readonly: true,
        required: false,
        col: 24,
      },
    ],
    list: Object.entries(map).map(([k, v]) => ({
      changeField: k,
      fieldName: k,
      oldValue: v,
      newValue: v,
      oldText: v,
      newText: v,
      dataType: 'text',
    })),
    fjList: [{ code: 'sqb', name: '信用变更申请表', required: true, formats: ['pdf'], maxSizeMb: 10 }],
    ...over,
  };
}

export const file = (n: number, code: string | null, name = `材料${n}.pdf`): RfcFile => ({
  fileId: uid(100 + n),
  fileName: name,
  fileSize: 2048,
  code,
  url: `/ks/common/common/file/download?fileId=${uid(100 + n)}`,
});

/** A stored round (operations are computed by the fake from the signed-in role, as the server does). */
export function storedRound(round: number, over: Partial<RfcChangeRecord> = {}): RfcChangeRecord {
  return {
    id: uid(200 + round),
    round,
    gnCoding: AREA,
    businessId: BUSINESS_ID,
    businessName: '合同履约良好 · 山西示例建设工程有限公司',
    enterpriseId: ENTERPRISE_ID,
    enterpriseName: '山西示例建设工程有限公司',
    change: '1',
    changeStatus: RFC_STATUS_LABELS['1'],
    changeType: '信息变更/信用记录信息',
    changeTypeCode: 'info/record',
    kind: 'info',
    logbook: '认定结果复核后分值调整',
    sbTime: null,
    czTime: null,
    auditRecord: null,
    auditorName: null,
    attachment: file(1, null).url,
    files: [file(1, null), file(2, 'sqb', '信用变更申请表.pdf')],
    userPermission: false,
    managerPermission: false,
    operations: [],
    dataList: [
      {
        changeField: 'score',
        fieldName: '分值',
        oldValue: '3',
        newValue: '4',
        oldText: '3',
        newText: '4',
        dataType: 'number',
      },
    ],
    pass: null,
    saved: true,
    submitted: false,
    reviewId: null,
    auditLevel: null,
    createdByName: '张三',
    version: 1,
    ...over,
  };
}

export const PATHS = {
  rounds: paths.rfcChangeRecords.path,
  types: paths.rfcChangeTypes.path,
  fields: paths.rfcChangeFields.path,
  save: paths.rfcSaveChangeData.path,
  submit: paths.rfcChangeSubmit.path,
  audit: paths.rfcChangeAudit.path,
  contacts: paths.rfcContacts.path,
} as const;

const bodyOf = <T,>(req: TransportRequest): T => (typeof req.body === 'string' ? JSON.parse(req.body) : req.body) as T;

export function lastBody<T = Record<string, unknown>>(calls: TransportRequest[], path: string): T {
  const hits = calls.filter((c) => c.url.split('?')[0] === path);
  if (!hits.length) throw new Error(`no call to ${path}`);
  return bodyOf<T>(hits[hits.length - 1]!);
}

export function signIn(role: LoginRoleType) {
  sessionStorage.setItem(SESSION_KEYS.token, `tok-${role}`);
  sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify({ ...userInfo, loginRoleType: role }));
  sessionStorage.setItem(SESSION_KEYS.roles, JSON.stringify(role === 'M' ? ['admin'] : ['user']));
}

/**
 * A stateful fake of the change calls, following the server's rules: the enterprise (U) edits its latest open round
 * until it submits it, an administrator (M) decides a submitted one; a rejected or passed latest round lets the
 * enterprise start the next.
 */
export function setupRfc({
  role,
  rounds = [],
  fields = creditFields(),
  handlers = {},
}: {
  role: LoginRoleType;
  rounds?: RfcChangeRecord[];
  fields?: RfcChangeFields;
  handlers?: Record<string, Handler>;
}) {
  signIn(role);
  const state = { rounds: rounds.map((r) => ({ ...r })) };
  const withOps = (r: RfcChangeRecord, latest: boolean): RfcChangeRecord => {
    const userPermission = role === 'U' && latest && r.change === '1' && !r.submitted;
    const managerPermission = role === 'M' && latest && r.change === '1' && r.submitted;
    return {
      ...r,
      userPermission,
      managerPermission,
      operations: rfcOperations(r.id ? r : null, { userPermission, managerPermission }),
    };
  };
  const refuse = (message: string, status = 400) => ({ status, code: status, message });
  const find = (id: string) => state.rounds.find((r) => r.id === id);

  const server = createFakeServer({
    'GET /ks/auth/v1/authorization/check-login': () => ({
      data: { userInfo: { ...userInfo, loginRoleType: role }, roles: role === 'M' ? ['admin'] : ['user'] },
    }),
    [`POST ${PATHS.rounds}`]: (req) => {
      const body = bodyOf<{ change?: boolean }>(req);
      const list = state.rounds.map((r, i) => withOps(r, i === state.rounds.length - 1));
      const latest = state.rounds[state.rounds.length - 1];
      if (body.change && role === 'U' && rfcMayStartRound(latest?.change)) {
        const fresh = storedRound(state.rounds.length + 1, {
          id: null,
          change: '1',
          changeType: null,
          changeTypeCode: null,
          kind: null,
          logbook: null,
          attachment: null,
          files: [],
          dataList: [],
          saved: false,
          version: 0,
        });
        list.push(withOps(fresh, true));
      }
      return { data: list };
    },
    [`POST ${PATHS.types}`]: () => ({ data: TYPES }),
    [`POST ${PATHS.fields}`]: () => ({ data: fields }),
    [`POST ${PATHS.contacts}`]: () => ({ data: CONTACTS }),
    [`POST ${PATHS.save}`]: (req) => {
      const b = bodyOf<{
        id?: string | null;
        version?: number | null;
        changeTypeCode?: string;
        changeType?: string;
        logbook?: string;
        attachment?: string[];
        fileList?: { fileId: string; code: string }[];
        dataList?: { changeField: string; newValue: string | number | null }[];
      }>(req);
      const problem = rfcSaveProblem({
        changeTypeCode: b.changeTypeCode,
        kind: kindOf(TYPES, b.changeTypeCode),
        logbook: b.logbook,
        attachmentCount: b.attachment?.length ?? 0,
        annexes: fields.fjList.map((a) => ({ code: a.code, name: a.name, required: a.required })),
        annexCodes: (b.fileList ?? []).map((f) => f.code),
      });
      if (problem) return refuse(problem.message);
      const existing = b.id ? find(b.id) : null;
      if (b.id && !existing) return refuse(RFC_MESSAGES.notFound, 404);
      if (existing && existing.version !== b.version) return refuse(RFC_MESSAGES.stale, 409);
      if (existing?.submitted) return refuse(RFC_MESSAGES.alreadySubmitted, 409);
      const next = storedRound(existing?.round ?? state.rounds.length + 1, {
        ...(existing ?? {}),
        id: existing?.id ?? uid(200 + state.rounds.length + 1),
        changeTypeCode: b.changeTypeCode ?? null,
        changeType: b.changeType ?? null,
        kind: kindOf(TYPES, b.changeTypeCode),
        logbook: b.logbook ?? null,
        saved: true,
        version: (existing?.version ?? 0) + 1,
        dataList: (b.dataList ?? []).map((d) => ({
          changeField: d.changeField,
          fieldName: d.changeField,
          oldValue: fields.map[d.changeField] ?? null,
          newValue: d.newValue === null ? null : String(d.newValue),
          oldText: fields.map[d.changeField] ?? null,
          newText: d.newValue === null ? null : String(d.newValue),
          dataType: 'text',
        })),
      });
      if (existing) Object.assign(existing, next);
      else state.rounds.push(next);
      return { data: next, message: RFC_MESSAGES.saved };
    },
    [`POST ${PATHS.submit}`]: (req) => {
      const b = bodyOf<{ id: string; version: number }>(req);
      const r = find(b.id);
      if (!r) return refuse(RFC_MESSAGES.notFound, 404);
      if (!r.saved) return refuse(RFC_MESSAGES.saveFirst);
      if (r.submitted) return refuse(RFC_MESSAGES.alreadySubmitted, 409);
      Object.assign(r, { submitted: true, sbTime: '2026-11-20T02:00:00.000Z', version: r.version + 1, auditLevel: 1 });
      return { data: r };
    },
    [`POST ${PATHS.audit}`]: (req) => {
      const b = bodyOf<{ id: string; version: number; pass: boolean; auditRecord?: string | null }>(req);
      const r = find(b.id);
      if (!r) return refuse(RFC_MESSAGES.notFound, 404);
      if (r.change !== '1') return refuse(RFC_MESSAGES.notOpen, 409);
      if (!b.pass && !b.auditRecord?.trim()) return refuse(RFC_MESSAGES.suggestionRequired);
      const change = b.pass ? '2' : '-1';
      Object.assign(r, {
        change,
        changeStatus: RFC_STATUS_LABELS[change],
        pass: b.pass,
        auditRecord: b.auditRecord ?? null,
        auditorName: '平台管理员',
        czTime: '2026-11-21T03:00:00.000Z',
        version: r.version + 1,
      });
      return { data: r };
    },
    ...handlers,
  });
  configureRequest({ transport: server.transport });
  return { ...server, state };
}

/** The dialog opened on the demo credit record, with a 关闭 that closes it (onClose recorded). */
export function renderDialog(props: Partial<ChangeDialogProps> = {}) {
  const onClose = vi.fn();
  function Host() {
    const [open, setOpen] = useState(true);
    return (
      <ChangeDialog
        gnCoding={AREA}
        systemCoding="XYGL"
        businessId={BUSINESS_ID}
        open={open}
        onClose={() => {
          onClose();
          setOpen(false);
        }}
        {...props}
      />
    );
  }
  const view = renderRoutes([{ path: '*', element: <Host /> }], '/');
  return { ...view, onClose };
}

/** Presses 确定 of the open confirmation dialog whose content is `text`. */
export async function confirmDialog(user: User, text: string) {
  const content = await screen.findByText(text);
  const dialog = content.closest('.ant-modal-confirm, .ant-modal') as HTMLElement;
  const ok = Array.from(dialog.querySelectorAll('button')).find((b) => b.textContent === '确定');
  if (!ok) throw new Error('no 确定 button');
  await user.click(ok);
}

/** Waits for an antd message with this text. */
export function findMessage(text: string) {
  return waitFor(() => {
    const hit = Array.from(document.querySelectorAll('.ant-message-notice')).find((e) => e.textContent?.includes(text));
    if (!hit) throw new Error(`no message「${text}」`);
    return hit as HTMLElement;
  });
}
