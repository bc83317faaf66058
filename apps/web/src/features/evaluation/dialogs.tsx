import {
  EVAL_METHOD_LABELS,
  EVAL_METHODS,
  EVAL_MSG,
  EVAL_PANEL_LABELS,
  type EvalMethod,
  type EvalPanel,
  type EvalRoom,
  TENDER_LEGAL,
} from '@ks/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Empty, Form, Input, InputNumber, Modal, Radio, Select, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import {
  evalBegin,
  evalExtractionsQuery,
  evalPublish,
  evalReopen,
  evalRoomKey,
  evalSignReport,
  publicityDaysQuery,
  refusalOf,
  setRoom,
} from '../../api/evaluation';
import { isApiError, reportApiError } from '../../api/request';
import { textRules } from '../../components/admin';
import { testIdProps, useRoomAction } from './parts';

/** The dialogs of the evaluation room (issue 17): 开始评标, 退回重评, 签署评标报告, 发布中标候选人公示. */

/**
 * 开始评标: the host chooses one of the confirmed expert extractions for the section (its members form the committee)
 * and the evaluation method.
 */
export function BeginDialog({ room, open, onClose }: { room: EvalRoom; open: boolean; onClose: () => void }) {
  const sectionId = room.section.id;
  const extractions = useQuery({ ...evalExtractionsQuery(sectionId), enabled: open });
  const [form] = Form.useForm<{ extractionId: string; method: EvalMethod }>();
  const begin = useRoomAction(sectionId, evalBegin, '评标已开始，评标委员会已组建', onClose);
  const list = extractions.data ?? [];
  return (
    <Modal
      open={open}
      title="开始评标"
      okText="开始评标"
      cancelText="取消"
      width={720}
      onCancel={onClose}
      confirmLoading={begin.isPending}
      okButtonProps={{ ...testIdProps('eval-begin-ok'), disabled: list.length === 0 }}
      onOk={() =>
        form.validateFields().then(
          (v) => begin.mutate({ sectionId, extractionId: v.extractionId, method: v.method }),
          () => undefined,
        )
      }
      destroyOnHidden
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        title="以所选专家抽取中已确认参加的专家组建评标委员会：全部参加资格评审，按评标专业分入技术组或商务组。开始后不能更换。"
      />
      {extractions.isLoading ? (
        <Spin />
      ) : list.length === 0 ? (
        <Empty description="该标段没有已确认的专家抽取记录" data-testid="eval-no-extractions" />
      ) : (
        <Form
          form={form}
          layout="vertical"
          preserve={false}
          initialValues={{ method: room.criteria?.method ?? 'comprehensive' }}
        >
          <Form.Item
            name="extractionId"
            label="专家抽取记录"
            rules={[{ required: true, message: '请选择专家抽取记录' }]}
          >
            <Radio.Group data-testid="eval-begin-extractions">
              <Space orientation="vertical">
                {list.map((x) => (
                  <Radio key={x.id} value={x.id} data-testid={`eval-begin-extraction-${x.id}`}>
                    <Typography.Text strong>{x.code}</Typography.Text> {x.projectName} {x.sectionName}
                    <Typography.Text type="secondary">
                      （{x.members} 名专家，评标时间 {x.evaluationStartAt}）
                    </Typography.Text>
                  </Radio>
                ))}
              </Space>
            </Radio.Group>
          </Form.Item>
          <Form.Item name="method" label="评标办法" rules={[{ required: true, message: '请选择评标办法' }]}>
            <Radio.Group
              options={EVAL_METHODS.map((m) => ({ value: m, label: EVAL_METHOD_LABELS[m] }))}
              data-testid="eval-begin-method"
            />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

/** 退回重评: the chair sends one member's submitted panel back, with a reason (logged, shown to supervision). */
export function ReopenDialog({ room, open, onClose }: { room: EvalRoom; open: boolean; onClose: () => void }) {
  const sectionId = room.section.id;
  const [form] = Form.useForm<{ memberId: string; panel: EvalPanel; reason: string }>();
  const memberId = Form.useWatch('memberId', form);
  const reopen = useRoomAction(sectionId, evalReopen, '已退回重评', onClose);
  const submitted = room.members.filter((m) => m.panels.some((p) => m.submitted[p]));
  const member = room.members.find((m) => m.id === memberId);
  return (
    <Modal
      open={open}
      title="退回重评"
      okText="退回"
      cancelText="取消"
      onCancel={onClose}
      confirmLoading={reopen.isPending}
      okButtonProps={{ ...testIdProps('eval-reopen-ok'), danger: true }}
      onOk={() =>
        form.validateFields().then(
          (v) => reopen.mutate({ sectionId, memberId: v.memberId, panel: v.panel, reason: v.reason.trim() }),
          () => undefined,
        )
      }
      destroyOnHidden
    >
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 12 }}
        title="退回后该专家该组的评审结果解除锁定，须重新提交；退回及理由记入开评标日志并提示监督。"
      />
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="memberId" label="专家" rules={[{ required: true, message: EVAL_MSG.memberMissing }]}>
          <Select
            placeholder="选择已提交评审结果的专家"
            options={submitted.map((m) => ({ value: m.id, label: m.name }))}
            onChange={() => form.setFieldValue('panel', undefined)}
            data-testid="eval-reopen-member"
          />
        </Form.Item>
        <Form.Item name="panel" label="评审组" rules={[{ required: true, message: '请选择评审组' }]}>
          <Radio.Group data-testid="eval-reopen-panel">
            {(member?.panels ?? []).map((p) => (
              <Radio key={p} value={p} disabled={!member?.submitted[p]} data-testid={`eval-reopen-panel-${p}`}>
                {EVAL_PANEL_LABELS[p]}
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
        <Form.Item name="reason" label="退回理由" rules={textRules('退回理由', 4, 500)}>
          <Input.TextArea rows={3} maxLength={500} showCount data-testid="eval-reopen-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 签署评标报告: agree, or record a dissent and its reasons. Signing cannot be undone. */
export function SignReportDialog({ room, open, onClose }: { room: EvalRoom; open: boolean; onClose: () => void }) {
  const sectionId = room.section.id;
  const [form] = Form.useForm<{ agree: boolean; dissent?: string }>();
  const agree = Form.useWatch('agree', form);
  const sign = useRoomAction(sectionId, evalSignReport, '评标报告已签署', onClose);
  return (
    <Modal
      open={open}
      title="签署评标报告"
      okText="确认签署"
      cancelText="取消"
      onCancel={onClose}
      confirmLoading={sign.isPending}
      okButtonProps={testIdProps('eval-sign-ok')}
      onOk={() =>
        form.validateFields().then(
          (v) =>
            sign.mutate(
              v.agree ? { sectionId, agree: true } : { sectionId, agree: false, dissent: (v.dissent ?? '').trim() },
            ),
          () => undefined,
        )
      }
      destroyOnHidden
    >
      <Alert type="warning" showIcon style={{ marginBottom: 12 }} title="签署后不能撤回；全部评委签署后评标结束。" />
      <Form form={form} layout="vertical" preserve={false} initialValues={{ agree: true }}>
        <Form.Item name="agree" label="签署意见">
          <Radio.Group data-testid="eval-sign-agree">
            <Radio value={true}>同意评标结果</Radio>
            <Radio value={false} data-testid="eval-sign-dissent-option">
              持不同意见
            </Radio>
          </Radio.Group>
        </Form.Item>
        {agree === false && (
          <Form.Item
            name="dissent"
            label="不同意见及理由"
            rules={[
              { required: true, whitespace: true, message: EVAL_MSG.dissentNeedsReason },
              {
                validator: (_, v: string | undefined) => {
                  const n = (v ?? '').trim().length;
                  return n === 0 || n >= 4 ? Promise.resolve() : Promise.reject(new Error(EVAL_MSG.dissentNeedsReason));
                },
              },
            ]}
          >
            <Input.TextArea rows={4} maxLength={1000} showCount data-testid="eval-sign-dissent" />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

/**
 * 发布中标候选人公示: the host publishes the top candidates to the portal for a period of days (at least the tender
 * settings' minimum, itself at least the legal 3). The server's refusal (too short a period, already published…) is
 * shown in the dialog, which stays open.
 */
export function PublishDialog({ room, open, onClose }: { room: EvalRoom; open: boolean; onClose: () => void }) {
  const sectionId = room.section.id;
  const qc = useQueryClient();
  const { message } = App.useApp();
  const minDays = useQuery({ ...publicityDaysQuery, enabled: open });
  const min = minDays.data ?? TENDER_LEGAL.publicityDays;
  const [form] = Form.useForm<{ days: number }>();
  const [refusal, setRefusal] = useState<string | null>(null);
  const publish = useMutation({
    mutationFn: (days: number) => evalPublish({ sectionId, days }),
    onMutate: () => setRefusal(null),
    onSuccess: (r) => {
      setRoom(qc, r);
      void message.success('中标候选人公示已发布到交易信息');
      onClose();
    },
    onError: (err) => {
      const text = refusalOf(err);
      if (text) setRefusal(text);
      else if (isApiError(err)) reportApiError(err);
      void qc.invalidateQueries({ queryKey: evalRoomKey(sectionId) });
    },
  });
  const close = () => {
    setRefusal(null);
    onClose();
  };
  return (
    <Modal
      open={open}
      title="发布中标候选人公示"
      okText="发布公示"
      cancelText="取消"
      onCancel={close}
      confirmLoading={publish.isPending}
      okButtonProps={testIdProps('eval-publish-ok')}
      onOk={() =>
        form.validateFields().then(
          (v) => publish.mutate(v.days),
          () => undefined,
        )
      }
      destroyOnHidden
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        title="排名前三的中标候选人将发布到门户交易信息公示；公示期内投标人可提出异议，公示期结束且异议均已答复后方可确定中标人。发布后不能撤回。"
      />
      {refusal && (
        <Alert type="error" showIcon style={{ marginBottom: 12 }} title={refusal} data-testid="eval-publish-error" />
      )}
      {minDays.isLoading ? (
        <Spin />
      ) : (
        <Form form={form} layout="vertical" preserve={false} initialValues={{ days: min }}>
          <Form.Item
            name="days"
            label="公示天数"
            extra={`公示期不少于 ${min} 日（法定不少于 3 日）`}
            rules={[
              { required: true, message: '请输入公示天数' },
              { type: 'integer', min, max: 30, message: `公示天数应为 ${min} 至 30 之间的整数` },
            ]}
          >
            <InputNumber
              min={min}
              max={30}
              precision={0}
              suffix="日"
              style={{ width: 160 }}
              data-testid="eval-publish-days"
            />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
