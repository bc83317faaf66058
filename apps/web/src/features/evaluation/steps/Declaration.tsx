import { SafetyCertificateOutlined } from '@ant-design/icons';
import type { EvalRoom } from '@ks/contracts';
import { Alert, Card, Form, Input, Radio, Space, Typography } from 'antd';
import { evalDeclare } from '../../../api/evaluation';
import { textRules } from '../../../components/admin';
import { ConfirmButton, formatSeconds, useRoomAction } from '../parts';

/** The situations in which an expert must avoid the section (DOMAIN.md, 回避). */
export const AVOIDANCE_GROUNDS = [
  '与投标人主要负责人有近亲属关系；',
  '项目主管部门或者行政监督部门的人员；',
  '与投标人有经济利益关系，可能影响对投标公正评审的；',
  '曾因在招标、评标以及其他与招标投标有关活动中从事违法行为而受过行政处罚或刑事处罚的。',
];

/**
 * 回避声明: before a member sees any bid they declare that none of the grounds applies (无上述情形), or apply to avoid
 * the section with the reason (申请回避: recused, no more part in it). Once signed it cannot be changed.
 */
export function DeclarationCard({ room }: { room: EvalRoom }) {
  const me = room.me;
  const [form] = Form.useForm<{ conflict: boolean; text?: string }>();
  const conflict = Form.useWatch('conflict', form);
  const declare = useRoomAction(room.section.id, evalDeclare, '回避声明已签署');
  if (!me) return null;
  if (me.declaredAt) {
    return (
      <Alert
        type={me.recused ? 'warning' : 'success'}
        showIcon
        data-testid="eval-declared"
        title={
          me.recused
            ? `您已于 ${formatSeconds(me.declaredAt)} 申请回避，不参加该标段的评审`
            : `您已于 ${formatSeconds(me.declaredAt)} 签署回避声明（无应回避情形）`
        }
        description={me.recused && me.conflict ? `回避事由：${me.conflict}` : undefined}
      />
    );
  }
  if (!room.actions.declare) return null;
  const submit = () =>
    form
      .validateFields()
      .then((v) =>
        declare.mutateAsync(
          v.conflict
            ? { sectionId: room.section.id, conflict: true, text: (v.text ?? '').trim() }
            : { sectionId: room.section.id, conflict: false },
        ),
      );
  return (
    <Card
      size="small"
      title={
        <Space>
          <SafetyCertificateOutlined />
          回避声明
        </Space>
      }
      data-testid="eval-declare-card"
    >
      <Typography.Paragraph style={{ marginBottom: 4 }}>
        本人 {me.name} 作为本标段评标委员会成员，在查阅投标文件前声明：本人不存在下列应当回避的情形——
      </Typography.Paragraph>
      <ol className="eval-grounds">
        {AVOIDANCE_GROUNDS.map((g) => (
          <li key={g}>{g}</li>
        ))}
      </ol>
      <Form form={form} layout="vertical" initialValues={{ conflict: false }}>
        <Form.Item name="conflict" style={{ marginBottom: 8 }}>
          <Radio.Group data-testid="eval-declare-choice">
            <Space orientation="vertical">
              <Radio value={false} data-testid="eval-declare-none">
                无上述情形，承诺客观公正地评审
              </Radio>
              <Radio value={true} data-testid="eval-declare-conflict">
                存在上述情形，申请回避
              </Radio>
            </Space>
          </Radio.Group>
        </Form.Item>
        {conflict && (
          <Form.Item name="text" label="回避事由" validateFirst rules={textRules('回避事由', 4, 500)}>
            <Input.TextArea rows={3} maxLength={500} showCount data-testid="eval-declare-text" />
          </Form.Item>
        )}
      </Form>
      <ConfirmButton
        type="primary"
        title={conflict ? '申请回避后您将不能参加该标段的评审，确定提交？' : '签署后不能修改，确定签署回避声明？'}
        onConfirm={submit}
        loading={declare.isPending}
        testId="eval-declare-submit"
        danger={Boolean(conflict)}
      >
        {conflict ? '申请回避' : '签署回避声明'}
      </ConfirmButton>
    </Card>
  );
}
