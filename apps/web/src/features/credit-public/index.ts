// What the credit-public feature offers others (a feature is imported only through its index.ts): the public credit
// list's filters as they are written in a URL, for a link that opens the list already searched. Its pages (信用分析,
// 信用承诺书 and its detail, 信用公示 in the shell and on the portal) are loaded by the route table on their own.
export { type PublicListFilters, parsePublicFilters, publicFiltersToSearch } from './query';
