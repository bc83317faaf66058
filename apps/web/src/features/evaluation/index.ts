// What bid evaluation offers other features: the outcome's parts (the opening hall shows a bidder's 评标结果 with them).

export { BidderClarifications } from './clarify';
export {
  AwardNoticeButton,
  CandidatesTable,
  NoticeLink,
  ObjectionsTable,
  OutcomeTextDialog,
  PublicityPeriod,
} from './outcome';
export { TradeProgress } from './TradeProgress';
