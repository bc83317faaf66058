import { DEFAULT_PAGE_SIZE } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Card, Skeleton, type TableColumnsType, Tag } from 'antd';
import { Link, useSearchParams } from 'react-router';
import {
  FilterBar,
  KeywordFilter,
  LoadFailure,
  PageFrame,
  RefreshButton,
  SelectFilter,
  ServerTable,
  useServerList,
} from '../../components/admin';
import { formatDateTime } from '../../lib/format';
import { CREDIT_LETTER_DETAIL_PATH } from '../../lib/paths';
import { useCurrentUser } from '../../lib/sessionHooks';
import { LETTERS_KEY, type LetterFilters, letterInfoQuery, letterListQuery } from './api';
import { type CreditLetter, LetterView } from './LetterView';
import { CREDIT_SECTION, nodeQuery } from './shared';

export const LETTER_TITLE = '信用承诺书';

/** The detail page of one enterprise's book, keeping the node the list was opened from. */
export function letterDetailHref(enterpriseId: string, searchParams: URLSearchParams): string {
  const q = new URLSearchParams(nodeQuery(searchParams));
  q.set('enterpriseId', enterpriseId);
  return `${CREDIT_LETTER_DETAIL_PATH}?${q.toString()}`;
}

type SignedFilter = 'signed' | 'unsigned';

/** Administrators (and developers, who read every enterprise's): the books of all enterprises, signed or not. */
function LetterList() {
  const [searchParams] = useSearchParams();
  const view = useServerList({
    initial: { pageNum: 1, pageSize: DEFAULT_PAGE_SIZE } as LetterFilters,
    query: letterListQuery,
    refreshKey: LETTERS_KEY,
  });
  const signed = view.filters.signed === undefined ? undefined : view.filters.signed ? 'signed' : 'unsigned';
  const columns: TableColumnsType<CreditLetter> = [
    {
      title: '企业名称',
      dataIndex: 'enterpriseName',
      render: (name: string, r) => (
        <Link to={letterDetailHref(r.enterpriseId, searchParams)} data-testid="letter-name">
          {name}
        </Link>
      ),
    },
    { title: '统一社会信用代码', dataIndex: 'creditCode', width: 200 },
    { title: '法定代表人', dataIndex: 'legalPerson', width: 120, render: (v: string | null) => v ?? '—' },
    {
      title: '签署状态',
      dataIndex: 'signed',
      width: 100,
      render: (v: boolean) => (v ? <Tag color="success">已签署</Tag> : <Tag color="warning">未签署</Tag>),
    },
    { title: '签署人', dataIndex: 'signerName', width: 110, render: (v: string | null) => v ?? '—' },
    {
      title: '签署日期',
      dataIndex: 'signedAt',
      width: 170,
      render: (v: string | null) => (v ? formatDateTime(v) : '—'),
    },
    {
      title: '操作',
      key: 'ops',
      width: 90,
      fixed: 'right',
      render: (_, r) => (
        <Link to={letterDetailHref(r.enterpriseId, searchParams)} data-testid="letter-open">
          查看
        </Link>
      ),
    },
  ];

  if (view.failed && view.list.error) {
    return <LoadFailure error={view.list.error} what="信用承诺书列表" />;
  }
  return (
    <Card data-testid="credit-letter-list">
      <FilterBar>
        <KeywordFilter
          placeholder="企业名称或统一社会信用代码"
          onSearch={(keyword) => view.setFilter({ keyword })}
          testId="letter-keyword"
        />
        <SelectFilter<SignedFilter>
          placeholder="签署状态"
          value={signed}
          onChange={(v) => view.setFilter({ signed: v === undefined ? undefined : v === 'signed' })}
          options={[
            { value: 'signed', label: '已签署' },
            { value: 'unsigned', label: '未签署' },
          ]}
          testId="letter-signed"
        />
        <RefreshButton onClick={view.refresh} query={view.list} />
      </FilterBar>
      <ServerTable<CreditLetter, LetterFilters>
        view={view}
        columns={columns}
        rowKey="enterpriseId"
        scrollX={960}
        testId="letter-table"
        unit="家企业"
      />
    </Card>
  );
}

/** An enterprise user: their own enterprise's book, with 签署 while it is unsigned. */
function OwnLetter() {
  const { userInfo } = useCurrentUser();
  const letter = useQuery(letterInfoQuery(null));
  if (letter.isPending) return <Skeleton active paragraph={{ rows: 10 }} />;
  if (letter.isError) return <LoadFailure error={letter.error} what="信用承诺书" />;
  return <LetterView letter={letter.data} canSign={userInfo?.loginRoleType === 'U'} />;
}

/**
 * 信用承诺书 `/credit/commitmentbook` (node property creditLetter), spec §6: administrators get the list of every
 * enterprise's book, everybody else the detail of their own.
 */
export default function CommitmentBookPage() {
  const { userInfo } = useCurrentUser();
  const listView = userInfo?.loginRoleType === 'M' || userInfo?.loginRoleType === 'D';
  return (
    <PageFrame section={CREDIT_SECTION} title={LETTER_TITLE}>
      {listView ? <LetterList /> : <OwnLetter />}
    </PageFrame>
  );
}
