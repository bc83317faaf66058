// Plain data (no UI kit): the route table imports it eagerly.
/** The business pages of the spec §2 route table that later releases build; the sidebar already routes to them. */
export const PENDING_ROUTE_PREFIXES = [
  'expertExtraction',
  'bidEvaluationSys',
  'bidZj',
  'bid',
  'bidStep',
  'demoPublicPage',
  'credit',
  'meetingVenue',
  'standardFile',
  'fileAnalysis',
  'productCenter',
  'lock',
  'custom',
  'fiveInOne',
  'dexRecords',
] as const;
