// What the portal offers other features (they may import a feature only through its index.ts): the portal's frame
// (header, footer, portal.css) and its light building blocks, for public pages that live with their own feature (the
// public credit list, features/credit-public).
export { PortalFrame } from './PortalFrame';
export {
  Breadcrumb,
  ChipGroup,
  Empty,
  ErrorState,
  GradeTag,
  KeywordForm,
  Pagination,
  SkeletonLines,
} from './ui';
