import type { EvalPanel } from '@ks/contracts';
import { Space } from 'antd';
import { Link } from 'react-router';
import { PageFrame } from '../../components/admin';
import { EVAL_PAGES, evalRoomHref } from '../../lib/paths';
import { panelLabel, SECTION } from './parts';
import { RoomView, useSectionId } from './Room';
import { SectionPicker } from './SectionPicker';
import { PanelReview } from './steps/ReviewStep';

const PANEL_PATHS: Record<EvalPanel, string> = {
  ZS: '/bidEvaluationSys/ZSbidEvaluation',
  JS: '/bidEvaluationSys/JSbidEvaluation',
  SW: '/bidEvaluationSys/SWbidEvaluation',
};

/**
 * The panel views `/bidEvaluationSys/{ZS,JS,SW}bidEvaluation?sectionId=` (issue 17): one panel's review — the same as
 * the room's review step for that panel — without the step menu.
 */
export default function EvalPanelPage({ panel }: { panel: EvalPanel }) {
  const sectionId = useSectionId();
  return (
    <PageFrame section={{ ...SECTION, to: EVAL_PAGES.overview }} title={panelLabel(panel)} wide>
      {sectionId ? (
        <RoomView key={sectionId} sectionId={sectionId}>
          {(room) => (
            <Space orientation="vertical" size={12} style={{ width: '100%' }}>
              <Link to={evalRoomHref(room.section.id, 'bidOverview')} data-testid="eval-panel-room-link">
                进入评标室
              </Link>
              <PanelReview room={room} panel={panel} />
            </Space>
          )}
        </RoomView>
      ) : (
        <SectionPicker hrefOf={(id) => `${PANEL_PATHS[panel]}?${new URLSearchParams({ sectionId: id })}`} />
      )}
    </PageFrame>
  );
}
