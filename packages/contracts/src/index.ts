export * from './account-centre';
export * from './account-centre-api';
export * from './accounts';
export * from './accounts-constants';
export * from './api';
export * from './auth';
// @index:bids
export * from './bids';
export * from './bids-api';
export * from './ca';
export * from './ca-api';
export * from './codes';
export * from './constants';
// @index:cost
export * from './cost';
export * from './cost-api';
export * from './credit';
export * from './credit-api';
export * from './credit-change';
export * from './credit-change-rules';
export * from './credit-rules';
export * from './dates';
// @index:deposits
export * from './deposits';
export * from './deposits-api';
// @index:dex
export * from './dex';
export * from './dex-api';
export * from './engine';
export * from './engine-api';
export * from './engine-fields';
export * from './engine-rules';
export * from './envelope';
// @index:evaluation
export * from './evaluation';
export * from './evaluation-api';
export * from './evaluation-rules';
// @index:experts
export * from './experts';
export * from './experts-api';
export * from './experts-rules';
export * from './feedback';
export * from './feedback-api';
export * from './feedback-constants';
// @index:files
export * from './files-api';
export * from './files-rules';
export * from './help';
export * from './help-api';
export * from './identifiers';
// @index:ledger
export * from './ledger';
export * from './ledger-api';
// @index:library
export * from './library';
export * from './library-api';
export * from './live';
// @index:material
export * from './material';
export * from './material-api';
export * from './messages';
export * from './messages-api';
// @index:monitor
export * from './monitor';
export * from './monitor-api';
// @index:opening
export * from './opening';
export * from './opening-api';
export * from './paths';
export * from './performance';
export * from './portal';
export * from './portal-constants';
export * from './portal-rules';
// @index:publicdata
export * from './publicdata';
export * from './publicdata-api';
export * from './register';
export * from './register-api';
export * from './register-rules';
export * from './rfc-api';
export * from './roles';
// @index:accounts
// @index:wechat
export * from './sessions';
export * from './shell';
export * from './shell-constants';
export * from './sms';
export * from './sms-api';
// @index:stats
export * from './stats';
export * from './stats-api';
// @index:system-notices
export * from './system-notices';
export * from './system-notices-api';
export * from './tender';
export * from './tender-api';
// @index:tender-files
export * from './tender-files';
export * from './tender-files-api';
export * from './tender-notice';
// @index:venue
export * from './venue';
export * from './venue-api';
export * from './venue-rules';
export * from './wechat';
export * from './wechat-api';
