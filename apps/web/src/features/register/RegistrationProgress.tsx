import {
  creditCodeInputProblem,
  formatIn,
  type RegistrationProgress as Progress,
  REGISTRATION_STATUS_LABELS,
} from '@ks/contracts';
import { Alert, Button, Descriptions, Form, Input, Steps, Tag } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { registrationProgress } from '../../api/register';
import { SaveErrorAlert } from '../../components/admin';
import { formErrors, REGISTER_PATHS, RegisterFrame } from './shared';

interface Values {
  creditCode: string;
  keyWord: string;
}

const STATUS_COLORS: Record<Progress['status'], string> = {
  pending: 'processing',
  approved: 'success',
  rejected: 'error',
};

/** 注册进度查询 (/creditCode/progress): the credit code and the application number, both. */
export default function RegistrationProgressPage() {
  const [params] = useSearchParams();
  const [form] = Form.useForm<Values>();
  const [result, setResult] = useState<Progress | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [loading, setLoading] = useState(false);

  const look = useCallback(
    async (v: Values) => {
      setLoading(true);
      setErrors([]);
      setResult(null);
      try {
        setResult(await registrationProgress(v.creditCode.trim().toUpperCase(), v.keyWord.trim().toUpperCase()));
      } catch (err) {
        setErrors(formErrors(err, form, ['creditCode', 'keyWord']));
      } finally {
        setLoading(false);
      }
    },
    [form],
  );

  // arriving from the submission's 查询审核进度: look it up at once
  const asked = useRef(false);
  useEffect(() => {
    const creditCode = params.get('creditCode');
    const keyWord = params.get('keyWord');
    if (asked.current || !creditCode || !keyWord) return;
    asked.current = true;
    form.setFieldsValue({ creditCode, keyWord });
    void look({ creditCode, keyWord });
  }, [params, form, look]);

  const stepOf = (r: Progress) => (r.status === 'pending' ? 1 : r.status === 'rejected' ? 2 : r.activated ? 3 : 2);

  return (
    <RegisterFrame
      testId="registration-progress"
      title="注册进度查询"
      subtitle="凭统一社会信用代码和申请编号查询企业注册申请的审核进度"
      width={640}
    >
      <Form<Values> form={form} layout="vertical" onFinish={look} requiredMark={false}>
        <SaveErrorAlert lines={errors} testId="progress-error" />
        <Form.Item
          name="creditCode"
          label="统一社会信用代码"
          normalize={(v: string) => v.toUpperCase().replace(/\s/g, '')}
          rules={[
            {
              validator: async (_: unknown, v: string | undefined) => {
                const p = creditCodeInputProblem(v ?? '');
                if (p) throw new Error(p);
              },
            },
          ]}
        >
          <Input data-testid="progress-credit-code" maxLength={18} />
        </Form.Item>
        <Form.Item
          name="keyWord"
          label="申请编号"
          rules={[{ required: true, whitespace: true, message: '请输入申请编号' }]}
        >
          <Input data-testid="progress-no" maxLength={32} placeholder="提交注册申请后获得，如 ZC20261126123456" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={loading} data-testid="progress-submit">
          查询
        </Button>
      </Form>
      {result ? (
        <div data-testid="progress-result" style={{ marginTop: 28 }}>
          <Steps
            size="small"
            current={stepOf(result)}
            status={
              result.status === 'rejected'
                ? 'error'
                : result.status === 'approved' && result.activated
                  ? 'finish'
                  : 'process'
            }
            items={[
              { title: '提交申请' },
              { title: '平台审核' },
              { title: result.status === 'rejected' ? '已驳回' : '企业激活' },
              ...(result.status === 'rejected' ? [] : [{ title: '完成' }]),
            ]}
            style={{ marginBottom: 20 }}
          />
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label="企业名称">{result.enterpriseName}</Descriptions.Item>
            <Descriptions.Item label="申请编号">{result.applicationNo}</Descriptions.Item>
            <Descriptions.Item label="提交时间">{formatIn(result.submittedAt, 'YYYY-MM-DD HH:mm')}</Descriptions.Item>
            <Descriptions.Item label="审核状态">
              <Tag color={STATUS_COLORS[result.status]} data-testid="progress-status">
                {result.status === 'approved' && result.activated
                  ? '已激活'
                  : REGISTRATION_STATUS_LABELS[result.status]}
              </Tag>
            </Descriptions.Item>
            {result.decidedAt ? (
              <Descriptions.Item label="审核时间">{formatIn(result.decidedAt, 'YYYY-MM-DD HH:mm')}</Descriptions.Item>
            ) : null}
          </Descriptions>
          {result.status === 'rejected' ? (
            <Alert
              data-testid="progress-reason"
              type="error"
              showIcon
              style={{ marginTop: 16 }}
              title={`驳回原因：${result.reason ?? ''}`}
              description={
                <span>
                  请按驳回原因修改后 <Link to={REGISTER_PATHS.enterprise}>重新提交注册申请</Link>。
                </span>
              }
            />
          ) : null}
          {result.status === 'approved' && !result.activated ? (
            <Alert
              type="success"
              showIcon
              style={{ marginTop: 16 }}
              title="审核已通过"
              description={
                <span>
                  请法定代表人 <Link to={REGISTER_PATHS.activate}>完成企业激活</Link> 后登录。
                </span>
              }
            />
          ) : null}
          {result.status === 'pending' ? (
            <Alert type="info" showIcon style={{ marginTop: 16 }} title="申请正在审核中，请耐心等待" />
          ) : null}
        </div>
      ) : null}
    </RegisterFrame>
  );
}
