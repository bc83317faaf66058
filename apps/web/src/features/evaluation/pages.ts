import { lazyPage } from '../../lib/chunkLoad';

// The evaluation pages (issue 17) for the route table, each its own chunk with the 120 s chunk timeout (as app/pages.ts
// declares the others).
export const EvalOverviewPage = lazyPage(() => import('./EvalOverviewPage'));
export const EvalReviewProcessPage = lazyPage(() => import('./ReviewProcessPage'));
export const EvalRoomPage = lazyPage(() => import('./EvalRoomPage'));
export const EvalPanelPage = lazyPage(() => import('./EvalPanelPage'));
export const ExpertWorkbenchPage = lazyPage(() => import('./ExpertWorkbenchPage'));
