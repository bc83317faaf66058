import { MESSAGE_PAGE_SIZE, TODO_BADGE_MAX } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Badge, List, Pagination, Skeleton, Tag, Typography } from 'antd';
import { useState } from 'react';
import { todoListQuery, todoSystemsQuery } from '../../api/messages';
import { Empty } from '../../components/placeholders/Empty';
import { formatTime } from './format';

/**
 * 待办 (screen 17): the system selector with each system's to-do count (badge max 99), the list of the chosen system's
 * to-dos 6 per page with at most 5 pager buttons, 暂无数据 when there are none. A click opens the to-do's record.
 */
export function TodoPane({ onOpen }: { onOpen: (path: string) => void }) {
  const systems = useQuery(todoSystemsQuery);
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const [page, setPage] = useState(1);
  const list = useQuery(todoListQuery(chosen, page, MESSAGE_PAGE_SIZE));
  const choose = (code: string | undefined) => {
    setChosen(code);
    setPage(1);
  };
  const total = list.data?.total ?? 0;
  const all = (systems.data ?? []).reduce((n, s) => n + s.todoCount, 0);

  return (
    <div data-testid="todo-pane">
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, marginBottom: 12 }} data-testid="todo-systems">
        <SystemChip
          label="全部"
          count={all}
          active={!chosen}
          onClick={() => choose(undefined)}
          testId="todo-system-all"
        />
        {(systems.data ?? []).map((s) => (
          <SystemChip
            key={s.systemCoding}
            label={s.systemName}
            count={s.todoCount}
            active={chosen === s.systemCoding}
            onClick={() => choose(s.systemCoding)}
            testId={`todo-system-${s.systemCoding}`}
          />
        ))}
      </div>
      {list.isLoading ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : total === 0 ? (
        <Empty testId="todo-empty" />
      ) : (
        <>
          <List
            size="small"
            dataSource={list.data?.records ?? []}
            renderItem={(t) => (
              <List.Item
                key={t.id}
                data-testid="todo-item"
                data-record={t.recordId}
                onClick={() => onOpen(t.path)}
                style={{ cursor: 'pointer', paddingInline: 8, display: 'block' }}
                className="ks-message-row"
              >
                <div style={{ display: 'flex', justifyContent: 'space-between', gap: 8 }}>
                  <Typography.Text strong ellipsis style={{ minWidth: 0 }} data-testid="todo-business">
                    {t.businessName}
                  </Typography.Text>
                  <Tag color="orange" style={{ marginInlineEnd: 0, flex: 'none' }}>
                    {t.gnName}
                  </Tag>
                </div>
                <div style={{ display: 'flex', justifyContent: 'space-between', fontSize: 12, marginTop: 4 }}>
                  <Typography.Text type="secondary">提交人：{t.userName || '—'}</Typography.Text>
                  <Typography.Text type="secondary">{formatTime(t.sbTime)}</Typography.Text>
                </div>
              </List.Item>
            )}
          />
          <Pagination
            data-testid="todo-pager"
            size="small"
            align="center"
            style={{ marginTop: 12 }}
            current={page}
            pageSize={MESSAGE_PAGE_SIZE}
            total={total}
            showLessItems
            showSizeChanger={false}
            onChange={setPage}
          />
        </>
      )}
    </div>
  );
}

function SystemChip(p: { label: string; count: number; active: boolean; onClick: () => void; testId: string }) {
  return (
    <Badge count={p.count} overflowCount={TODO_BADGE_MAX} size="small" data-testid={`${p.testId}-badge`}>
      <Tag.CheckableTag checked={p.active} onChange={p.onClick} data-testid={p.testId} style={{ marginInlineEnd: 0 }}>
        {p.label}
      </Tag.CheckableTag>
    </Badge>
  );
}
