import { Button, Checkbox, Input, Modal, Radio, Spin } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { Empty } from '../../components/placeholders/Empty';
import { TEXTS } from './constants';

/** Someone a task can be assigned to (the assignable-managers list). */
export interface AssignPerson {
  id: string;
  userName: string;
  account?: string;
  enterpriseName?: string | null;
  [key: string]: unknown;
}

export interface AssignDialogProps {
  open: boolean;
  people: readonly AssignPerson[];
  loading?: boolean;
  /** choose several people (checkboxes) instead of one */
  multiple?: boolean;
  /** 确定 is in progress */
  confirmLoading?: boolean;
  title?: string;
  onClose: () => void;
  onConfirm: (ids: string[], people: AssignPerson[]) => void;
}

const personInfo = (p: AssignPerson) => [p.account, p.enterpriseName].filter(Boolean).join(' · ');

/** The assign dialog (screen 15): 任务指派, a list of people to choose from, 关闭 and 确定 (disabled until a choice). */
export function AssignDialog({
  open,
  people,
  loading = false,
  multiple = false,
  confirmLoading = false,
  title = TEXTS.assignTitle,
  onClose,
  onConfirm,
}: AssignDialogProps) {
  const [chosen, setChosen] = useState<string[]>([]);
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    if (open) {
      setChosen([]);
      setKeyword('');
    }
  }, [open]);

  const shown = useMemo(() => {
    const k = keyword.trim().toLowerCase();
    if (!k) return people;
    return people.filter((p) => `${p.userName} ${personInfo(p)}`.toLowerCase().includes(k));
  }, [people, keyword]);

  const row = (p: AssignPerson) => (
    <span data-testid={`assign-person-${p.id}`}>
      {p.userName}
      {personInfo(p) ? (
        <span style={{ color: '#909399', marginInlineStart: 8, fontSize: 12 }}>{personInfo(p)}</span>
      ) : null}
    </span>
  );
  const itemStyle = { display: 'flex', padding: '6px 4px', borderBottom: '1px solid #f2f3f5', marginInlineEnd: 0 };

  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      width={480}
      footer={[
        <Button key="close" onClick={onClose} data-testid="assign-close">
          {TEXTS.close}
        </Button>,
        <Button
          key="ok"
          type="primary"
          disabled={chosen.length === 0}
          loading={confirmLoading}
          data-testid="assign-confirm"
          onClick={() =>
            onConfirm(
              chosen,
              chosen.map((id) => people.find((p) => p.id === id)).filter((p): p is AssignPerson => Boolean(p)),
            )
          }
        >
          {TEXTS.confirm}
        </Button>,
      ]}
    >
      <Input.Search
        allowClear
        placeholder="输入姓名筛选"
        value={keyword}
        onChange={(e) => setKeyword(e.target.value)}
        style={{ marginBottom: 8 }}
        data-testid="assign-filter"
      />
      <Spin spinning={loading}>
        <div style={{ maxHeight: 360, overflowY: 'auto', minHeight: 80 }} data-testid="assign-list">
          {shown.length === 0 && !loading ? (
            <Empty compact />
          ) : multiple ? (
            <Checkbox.Group
              value={chosen}
              onChange={(v) => setChosen(v.map(String))}
              style={{ display: 'flex', flexDirection: 'column' }}
            >
              {shown.map((p) => (
                <Checkbox key={p.id} value={p.id} style={itemStyle}>
                  {row(p)}
                </Checkbox>
              ))}
            </Checkbox.Group>
          ) : (
            <Radio.Group
              value={chosen[0]}
              onChange={(e) => setChosen([String(e.target.value)])}
              style={{ display: 'flex', flexDirection: 'column' }}
            >
              {shown.map((p) => (
                <Radio key={p.id} value={p.id} style={itemStyle}>
                  {row(p)}
                </Radio>
              ))}
            </Radio.Group>
          )}
        </div>
      </Spin>
    </Modal>
  );
}
