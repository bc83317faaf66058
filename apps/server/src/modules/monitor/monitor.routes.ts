import {
  api,
  appNow,
  EVAL_STATUS_LABELS,
  MONITOR_STAGE_LABELS,
  type MonitorRow,
  OPENING_STATUS_LABELS,
} from '@ks/contracts';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { contentDisposition } from '../../platform/content-disposition';
import { forbidden, parse, unauthorized } from '../../platform/errors';
import { route } from '../../platform/route';
import { callerOf } from '../evaluation/evaluation.deps';
import * as svc from './monitor.service';

const ANY = ['M', 'D', 'U'];

/** The console's rows as a workbook (the export of 监督台). */
export async function monitorXlsx(rows: MonitorRow[], tz: string): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('监督台', { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = [
    { header: '项目编号', key: 'projectNo', width: 18 },
    { header: '项目名称', key: 'projectName', width: 36 },
    { header: '标段编号', key: 'code', width: 10 },
    { header: '标段名称', key: 'name', width: 24 },
    { header: '开标时间', key: 'deadline', width: 18 },
    { header: '阶段', key: 'stage', width: 12 },
    { header: '开标状态', key: 'opening', width: 12 },
    { header: '评标状态', key: 'evaluation', width: 12 },
    { header: '投标文件数', key: 'bids', width: 10 },
    { header: '异常', key: 'anomalies', width: 8 },
    { header: '待核查', key: 'pending', width: 8 },
    { header: '核查意见', key: 'findings', width: 10 },
    { header: '监督人员', key: 'supervisor', width: 12 },
    { header: '最近动态', key: 'last', width: 18 },
  ];
  ws.getRow(1).font = { bold: true };
  for (const r of rows) {
    ws.addRow({
      projectNo: r.projectNo,
      projectName: r.projectName,
      code: r.code,
      name: r.name,
      deadline: appNow(new Date(r.bidDeadline), tz),
      stage: MONITOR_STAGE_LABELS[r.stage],
      opening: OPENING_STATUS_LABELS[r.openingStatus],
      evaluation: EVAL_STATUS_LABELS[r.evaluationStatus],
      bids: r.bids,
      anomalies: r.anomalies,
      pending: r.pendingAnomalies,
      findings: r.findings,
      supervisor: r.supervisor?.userName ?? '未指派',
      last: r.lastEventAt ? appNow(new Date(r.lastEventAt), tz) : '',
    });
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/**
 * 监督台 (issue 17, /ks/monitor/*). Every signed-in role may ask; the service answers 403 to anyone who is neither an
 * administrator nor a holder of 监督查看 on the tender projects.
 */
export function monitorRoutes(app: FastifyInstance, deps: svc.MonitorDeps) {
  route(app, api.monitorList, async ({ auth, body }) => svc.list(deps, callerOf(auth), body), { roles: ANY });
  route(app, api.monitorView, async ({ auth, body }) => svc.view(deps, callerOf(auth), body.sectionId), {
    roles: ANY,
  });
  route(app, api.monitorAssign, async ({ auth, body }) => svc.assign(deps, callerOf(auth), body), {
    roles: ANY,
    message: '已指派监督人员',
  });
  route(app, api.monitorRevoke, async ({ auth, body }) => svc.revoke(deps, callerOf(auth), body), {
    roles: ANY,
    message: '已撤回监督指派',
  });
  route(app, api.monitorAudit, async ({ auth, body }) => svc.audit(deps, callerOf(auth), body), {
    roles: ANY,
    message: '核查意见已记录',
  });
  route(app, api.monitorPublish, async ({ auth, body }) => svc.publish(deps, callerOf(auth), body), {
    roles: ANY,
    message: '监督意见已发布',
  });
  app.route({
    method: api.monitorExport.method,
    url: api.monitorExport.path,
    handler: async (req, reply) => {
      if (!req.auth) throw unauthorized();
      if (!ANY.includes(req.auth.user.loginRoleType)) throw forbidden();
      const q = parse(api.monitorExport.query, req.query);
      const rows = await svc.exportRows(deps, callerOf(req.auth), q);
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', contentDisposition('监督台.xlsx'))
        .header('cache-control', 'no-store')
        .send(await monitorXlsx(rows, deps.tz));
    },
  });
}
