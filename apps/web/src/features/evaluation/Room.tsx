import { EVAL_METHOD_LABELS, type EvalPanel, type EvalRoom } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Card, Col, Descriptions, Menu, Result, Row, Space, Tag, Typography } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { evalRoomKey, evalRoomQuery } from '../../api/evaluation';
import { LoadFailure } from '../../components/admin';
import { useLiveEvent } from '../../lib/live';
import { evalRoomHref } from '../../lib/paths';
import { chairOf, panelLabel, ROLE_LABELS, STEP_GROUPS, StatusTag, type StepKey } from './parts';
import { BeginStep } from './steps/BeginStep';
import { CommitteeStep } from './steps/CommitteeStep';
import { DocsStep } from './steps/DocsStep';
import { MethodStep } from './steps/MethodStep';
import { OverviewStep } from './steps/OverviewStep';
import { PublicityStep } from './steps/PublicityStep';
import { ResultStep } from './steps/ResultStep';
import { ReviewStep } from './steps/ReviewStep';
import { SignStep } from './steps/SignStep';
import { getBidInfo, setBidInfo, setBidSolution } from './storage';
import './evaluation.css';

/** The room is read again this often whatever the live channel says (a lost event, a stream being reconnected). */
export const ROOM_REFETCH_MS = 15_000;

function Header({ room }: { room: EvalRoom }) {
  const { section } = room;
  const chair = chairOf(room);
  return (
    <Card
      size="small"
      style={{ marginBottom: 12 }}
      title={
        <Space wrap>
          <span data-testid="eval-project">{section.projectName}</span>
          <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
            {section.code} {section.name}
          </Typography.Text>
        </Space>
      }
      extra={<StatusTag status={room.status} testId="eval-status" />}
    >
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, lg: 4 }}
        items={[
          { key: 'role', label: '我的角色', children: <span data-testid="eval-role">{ROLE_LABELS[room.role]}</span> },
          {
            key: 'chair',
            label: '评标委员会组长',
            children: <span data-testid="eval-chair-name">{chair?.name ?? '尚未推选'}</span>,
          },
          {
            key: 'method',
            label: '评标办法',
            children: room.criteria ? EVAL_METHOD_LABELS[room.criteria.method] : '—',
          },
          {
            key: 'start',
            label: '评标时间',
            children: room.extraction ? room.extraction.evaluationStartAt : '—',
          },
          ...(room.me
            ? [
                {
                  key: 'panels',
                  label: '我的评审组',
                  children: room.me.panels.map((p) => <Tag key={p}>{panelLabel(p)}</Tag>),
                },
              ]
            : []),
        ]}
      />
    </Card>
  );
}

/** The section a room page is about: ?sectionId=, else the one stored when a room was last entered (bidInfo). */
export function useSectionId(): string {
  const [params] = useSearchParams();
  return params.get('sectionId') ?? getBidInfo()?.sectionId ?? '';
}

/** Steps where the caller has something to do (a dot beside them in the menu). */
function todo(room: EvalRoom): Set<StepKey> {
  const a = room.actions;
  const out = new Set<StepKey>();
  if (a.begin) out.add('bidBegin');
  const sign: Record<EvalPanel, StepKey> = { ZS: 'bidSign', JS: 'bidSignZj', SW: 'bidSignSw' };
  for (const p of a.signIn) out.add(sign[p]);
  if (a.declare) for (const p of room.me?.panels ?? []) out.add(sign[p]);
  if (a.vote) out.add('zjInfo');
  if (a.score.includes('ZS') || a.score.includes('JS')) out.add('bidReview');
  if (a.score.includes('SW')) out.add('bidReviewSw');
  if (a.render || a.sign) out.add('bidResult');
  if (a.publish || a.answer || a.award) out.add('bidPublicity');
  return out;
}

function StepMenu({ room, step }: { room: EvalRoom; step: StepKey | null }) {
  const navigate = useNavigate();
  const marks = todo(room);
  return (
    <Card size="small" styles={{ body: { padding: 4 } }} className="eval-menu-card">
      <Menu
        mode="inline"
        selectedKeys={step ? [step] : []}
        onClick={({ key }) => navigate(evalRoomHref(room.section.id, key))}
        data-testid="eval-steps"
        items={STEP_GROUPS.map((g) => ({
          type: 'group' as const,
          key: g.title,
          label: g.title,
          children: g.steps.map((s) => ({
            key: s.key,
            label: (
              <span data-testid={`eval-step-link-${s.key}`}>
                {marks.has(s.key) ? <Badge status="processing" text={s.label} /> : s.label}
              </span>
            ),
          })),
        }))}
      />
    </Card>
  );
}

/** One step's content. */
export function StepContent({ room, step }: { room: EvalRoom; step: StepKey }) {
  switch (step) {
    case 'bidBegin':
      return <BeginStep room={room} />;
    case 'bidSign':
      return <SignStep room={room} panel="ZS" />;
    case 'bidSignZj':
      return <SignStep room={room} panel="JS" />;
    case 'bidSignSw':
      return <SignStep room={room} panel="SW" />;
    case 'zjInfo':
      return <CommitteeStep room={room} />;
    case 'bidDoc':
      return <DocsStep room={room} />;
    case 'bidMethod':
      return <MethodStep room={room} part="qualification" />;
    case 'bidMethodJs':
      return <MethodStep room={room} part="technical" />;
    case 'bidMethodSw':
      return <MethodStep room={room} part="business" />;
    case 'bidReview':
      return <ReviewStep room={room} panels={['ZS', 'JS']} />;
    case 'bidReviewSw':
      return <ReviewStep room={room} panels={['SW']} />;
    case 'bidResult':
      return <ResultStep room={room} />;
    case 'bidPublicity':
      return <PublicityStep room={room} />;
    case 'bidOverview':
      return <OverviewStep room={room} />;
  }
}

/** The room's query, kept live: re-read on an `evaluation` event of this section, after a reconnect, and every 15 s. */
export function useRoom(sectionId: string) {
  const qc = useQueryClient();
  const query = useQuery({ ...evalRoomQuery(sectionId), refetchInterval: ROOM_REFETCH_MS });
  const reload = () => void qc.invalidateQueries({ queryKey: evalRoomKey(sectionId) });
  useLiveEvent('evaluation', (d) => {
    if (d.sectionId === sectionId) reload();
  });
  useLiveEvent('resync', reload);
  const room = query.data;
  // spec §9 session keys: the section being evaluated, and its method
  useEffect(() => {
    if (!room) return;
    const { id, code, name, projectName } = room.section;
    setBidInfo({ sectionId: id, code, name, projectName });
    if (room.criteria) setBidSolution({ sectionId: id, criteria: room.criteria });
  }, [room]);
  return query;
}

/**
 * The evaluation room of one section: the header, and either the step menu beside a step (`step`), or what
 * `children` shows (the panel views, without the menu).
 */
export function RoomView({
  sectionId,
  step,
  children,
}: {
  sectionId: string;
  /** null: a step that does not exist (the menu stays, the content says so) */
  step?: StepKey | null;
  children?: (room: EvalRoom) => ReactNode;
}) {
  const query = useRoom(sectionId);
  if (query.error) return <LoadFailure error={query.error} what="评标室" />;
  const room = query.data;
  if (!room) return <Card loading />;
  if (children) {
    return (
      <>
        <Header room={room} />
        {children(room)}
      </>
    );
  }
  return (
    <>
      <Header room={room} />
      <Row gutter={12} wrap={false} className="eval-room">
        <Col flex="220px" className="eval-room-menu">
          <StepMenu room={room} step={step ?? null} />
        </Col>
        <Col flex="auto" style={{ minWidth: 0 }}>
          {step ? (
            <StepContent room={room} step={step} />
          ) : (
            <Card>
              <Result
                status="404"
                title="没有该评标步骤"
                subTitle="请从左侧选择评标步骤"
                data-testid="eval-step-missing"
              />
            </Card>
          )}
        </Col>
      </Row>
    </>
  );
}
