export { changePublicRoutes, changeRoutes } from './changes.routes';
export { latestRound, registerChangeHooks } from './changes.service';
