import { useParams } from 'react-router';
import { PageFrame } from '../../components/admin';
import { EVAL_PAGES, evalRoomHref } from '../../lib/paths';
import { isStepKey, SECTION, stepLabel } from './parts';
import { RoomView, useSectionId } from './Room';
import { SectionPicker } from './SectionPicker';

/**
 * 评标室 `/bidStep/<step>?sectionId=` (issue 17): one layout — the header and the step menu — around each step of the
 * evaluation: 开始评标, the panels' sign-in with the avoidance declaration, the committee and its chair, the bids, the
 * method, the reviews, the result and the overview. Buttons follow the room's `actions`; the room is live.
 */
export default function EvalRoomPage() {
  const { step: raw } = useParams();
  const sectionId = useSectionId();
  const step = raw === undefined ? 'bidOverview' : isStepKey(raw) ? raw : null;
  return (
    <PageFrame section={{ ...SECTION, to: EVAL_PAGES.overview }} title={step ? stepLabel(step) : '评标室'} wide>
      {sectionId ? (
        <RoomView key={sectionId} sectionId={sectionId} step={step} />
      ) : (
        <SectionPicker hrefOf={(id) => evalRoomHref(id, step ?? 'bidOverview')} />
      )}
    </PageFrame>
  );
}
