import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { LoadFailure, PageFrame } from '../../components/admin';
import { useCurrentUser } from '../../lib/sessionHooks';
import { letterInfoQuery } from './api';
import { LETTER_TITLE } from './CommitmentBookPage';
import { LetterView } from './LetterView';
import { CREDIT_SECTION, nodeQuery } from './shared';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `/credit/commitmentbookDetail?enterpriseId=`: one enterprise's commitment book (administrators open it from the list;
 * an enterprise user reaches only their own — the server answers 404 for any other), printable. Without an id it is the
 * caller's own book.
 */
export default function CommitmentBookDetailPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const { userInfo } = useCurrentUser();
  const raw = searchParams.get('enterpriseId');
  const enterpriseId = raw && UUID.test(raw) ? raw : null;
  const letter = useQuery({ ...letterInfoQuery(enterpriseId), enabled: raw === null || enterpriseId !== null });
  // an enterprise user signs only their own enterprise's book: which one that is, the own-book call says
  const isUser = userInfo?.loginRoleType === 'U';
  const own = useQuery({ ...letterInfoQuery(null), enabled: isUser && enterpriseId !== null });
  const back = () => {
    const q = nodeQuery(searchParams);
    void navigate(`/credit/commitmentbook${q ? `?${q}` : ''}`);
  };
  const backButton = (
    <Button icon={<ArrowLeftOutlined />} onClick={back} data-testid="letter-back">
      返回
    </Button>
  );

  let body: ReactNode;
  if (raw !== null && enterpriseId === null) {
    body = <LoadFailure error={new Error('企业不存在')} what="信用承诺书" />;
  } else if (letter.isPending) {
    body = <Skeleton active paragraph={{ rows: 10 }} />;
  } else if (letter.isError) {
    body = <LoadFailure error={letter.error} what="信用承诺书" />;
  } else {
    // only the enterprise's own user signs (the server signs for the caller's enterprise only)
    const canSign = isUser && (enterpriseId === null || own.data?.enterpriseId === letter.data.enterpriseId);
    body = <LetterView letter={letter.data} canSign={canSign} extra={backButton} />;
  }
  return (
    <PageFrame
      section={{ title: CREDIT_SECTION.title }}
      title={letter.data ? `${LETTER_TITLE}：${letter.data.enterpriseName}` : LETTER_TITLE}
    >
      {body}
    </PageFrame>
  );
}
