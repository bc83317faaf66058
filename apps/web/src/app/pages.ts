import { lazyPage } from '../lib/chunkLoad';

// Every page is its own chunk, loaded with the 120 s chunk timeout. Portal pages import no antd; everything built
// with antd sits below the AntdShell layout route (or inside it, on the sign-in landing routes).
export const AntdShell = lazyPage(() => import('./AntdShell'));
export const LoginPage = lazyPage(() => import('../features/auth/LoginPage'));
export const AppLayout = lazyPage(() => import('../shell/AppLayout'));
export const PageConfigPage = lazyPage(() => import('../features/system/PageConfigPage'));
export const SystemNoticePage = lazyPage(() => import('../features/notices/SystemNoticePage'));
export const PortalNoticesPage = lazyPage(() => import('../features/system/PortalNoticesPage'));
// @pages:shell
export const PendingPage = lazyPage(() => import('../features/shell/PendingPage'));
export const JudgePage = lazyPage(() => import('../features/shell/JudgePage'));
export const UserCenterPage = lazyPage(() => import('../features/shell/UserCenterPage'));
export const SmsOutboxPage = lazyPage(() => import('../features/account-centre/SmsOutboxPage'));
// @pages:config
export const AllSystemPage = lazyPage(() => import('../features/config/AllSystemPage'));
export const MenuSetUpPage = lazyPage(() => import('../features/config/MenuSetUpPage'));
export const SetUpListPage = lazyPage(() => import('../features/config/SetUpListPage'));
export const SetUpFormPage = lazyPage(() => import('../features/config/SetUpFormPage'));
export const SetTypeCardPage = lazyPage(() => import('../features/config/SetTypeCardPage'));
export const StyleTemplatePage = lazyPage(() => import('../features/config/StyleTemplatePage'));
export const EchartsSettingPage = lazyPage(() => import('../features/config/EchartsSettingPage'));
export const JumpNoticeCfgPage = lazyPage(() => import('../features/config/JumpNoticeCfgPage'));
export const ProductConfigPage = lazyPage(() => import('../features/config/ProductConfigPage'));
// @pages:permission
export const PermissionsSetPage = lazyPage(() => import('../features/permission/PermissionsSetPage'));
export const PermissConfigPage = lazyPage(() => import('../features/permission/PermissConfigPage'));
export const AuditLevelPage = lazyPage(() => import('../features/permission/AuditLevelPage'));
export const AuditWayPage = lazyPage(() => import('../features/permission/AuditWayPage'));
// @pages:accounts
export const AdminInfoPage = lazyPage(() => import('../features/accounts/AdminInfoPage'));
export const MessagePublishPage = lazyPage(() => import('../features/messages/MessagePublishPage'));
export const PersonnelInfoPage = lazyPage(() => import('../features/accounts/PersonnelInfoPage'));
export const ManagementInfoPage = lazyPage(() => import('../features/accounts/ManagementInfoPage'));
export const CompanyInfoPage = lazyPage(() => import('../features/accounts/CompanyInfoPage'));
export const TransactPage = lazyPage(() => import('../features/accounts/TransactPage'));

// @pages:ca — CA certificate sign-in (public) and /lock
export const CaLandingPage = lazyPage(() => import('../features/ca/CaLandingPage'));
export const CaLoginPage = lazyPage(() => import('../features/ca/CaLoginPage'));
export const CaRegisterPage = lazyPage(() => import('../features/ca/CaRegisterPage'));
export const LockPage = lazyPage(() => import('../features/ca/LockPage'));
// @pages:tender
export const FiveInOneListPage = lazyPage(() => import('../features/tender/FiveInOneListPage'));
export const TenderRegistrationPage = lazyPage(() => import('../features/tender/RegistrationPage'));
export const FiveInOneDetailPage = lazyPage(() => import('../features/tender/FiveInOneDetailPage'));

// @pages:help
export const HelpManagePage = lazyPage(() => import('../features/help/HelpManagePage'));
export const ServiceConsolePage = lazyPage(() => import('../features/help/ServiceConsolePage'));

// @pages:engine
export const DynamicIndexPage = lazyPage(() => import('../features/engine/DynamicIndexPage'));
export const DynamicDetailPage = lazyPage(() => import('../features/engine/DynamicDetailPage'));
export const ApplyIndexPage = lazyPage(() => import('../features/engine/ApplyIndexPage'));
export const ApplyDetailPage = lazyPage(() => import('../features/engine/ApplyDetailPage'));

// @pages:credit
export const CreditInfoPage = lazyPage(() => import('../features/credit/CreditInfoPage'));
// @pages:credit-public
export const CreditAnalysisPage = lazyPage(() => import('../features/credit-public/AnalysisPage'));
export const CommitmentBookPage = lazyPage(() => import('../features/credit-public/CommitmentBookPage'));
export const CommitmentBookDetailPage = lazyPage(() => import('../features/credit-public/CommitmentBookDetailPage'));
export const CreditPublicListPage = lazyPage(() => import('../features/credit-public/PublicListPage'));
export const CreditPublicPortalPage = lazyPage(() => import('../features/credit-public/PublicPortalPage'));

export const PortalHome = lazyPage(() => import('../features/portal/HomePage'));
export const TransacPage = lazyPage(() => import('../features/portal/TransacPage'));
export const NoticeDetailPage = lazyPage(() => import('../features/portal/NoticeDetailPage'));
export const MarketPage = lazyPage(() => import('../features/portal/MarketPage'));
export const MarketListPage = lazyPage(() => import('../features/portal/MarketListPage'));
export const MarketDetailPage = lazyPage(() => import('../features/portal/MarketDetailPage'));
// @pages:feedback
export const FeedbackAdminPage = lazyPage(() => import('../features/feedback/FeedbackAdminPage'));
// @pages:register — self-registration, activation, real-name registration, credit-code sign-in (issue 15)
export const EnterpriseRegisterPage = lazyPage(() => import('../features/register/EnterpriseRegisterPage'));
export const RegistrationProgressPage = lazyPage(() => import('../features/register/RegistrationProgress'));
export const ActivatePage = lazyPage(() => import('../features/register/ActivatePage'));
export const RealNamePage = lazyPage(() => import('../features/register/RealNamePage'));
export const CreditCodeLoginPage = lazyPage(() => import('../features/register/CreditCodeLoginPage'));
// @pages:ledger — the opening-and-evaluation log's public verification (issue 17)
export const LedgerVerifyPage = lazyPage(() => import('../features/ledger/LedgerVerifyPage'));
// @pages:venue — venue booking (issue 16): the calendar, the booking page, the public availability
export const VenueCalendarPage = lazyPage(() => import('../features/venue/VenueCalendarPage'));
export const VenueBookingPage = lazyPage(() => import('../features/venue/VenueBookingPage'));
export const VenuePublicPage = lazyPage(() => import('../features/venue/VenuePublicPage'));
export const GuaranteePage = lazyPage(() => import('../features/guarantee/GuaranteePage'));
// @pages:library — 资料库 (issue 19): product centre and standard files
export const LibraryFileDownloadPage = lazyPage(() => import('../features/library/FileDownloadPage'));
export const LibraryVideoDownloadPage = lazyPage(() => import('../features/library/VideoDownloadPage'));
export const LibrarySystemPlatformPage = lazyPage(() => import('../features/library/SystemPlatformPage'));
export const LibraryLetterBookPage = lazyPage(() => import('../features/library/LetterBookPage'));
// @pages:stats — 统计分析 (issue 19)
export const StatsTransactionsPage = lazyPage(() => import('../features/stats/StatisticsPage'));
export const StatsCompleteCountPage = lazyPage(() => import('../features/stats/CompleteCountPage'));
export const StatsProgressPage = lazyPage(() => import('../features/stats/ViewProgressPage'));
// @pages:bids — sealed bids (issue 16)
export const BidFilesPage = lazyPage(() => import('../features/bids/BidFilesPage'));
export const BidToolPage = lazyPage(() => import('../features/bids/BidToolPage'));
// @pages:opening — the remote opening hall (issue 17)
export const OpeningOverviewPage = lazyPage(() => import('../features/opening/OpeningOverviewPage'));
export const MonitorPage = lazyPage(() => import('../features/monitor/MonitorPage'));
// 文件分析 (issue 18)
export const CostIndexPage = lazyPage(() => import('../features/cost/CostIndexPage'));
export const CostTreePage = lazyPage(() => import('../features/cost/CostTreePage'));
export const CostPublicityPage = lazyPage(() => import('../features/cost/CostPublicityPage'));
// @pages:publicdata — 公共数据 (issue 19)
export const PublicDetailsListPage = lazyPage(() => import('../features/publicdata/DetailsListPage'));
export const PublicPerDetailsPage = lazyPage(() => import('../features/publicdata/PerDetailsPage'));
export const PublicPriceLimitPage = lazyPage(() => import('../features/publicdata/PriceLimitPage'));
export const PublicIndicatorPage = lazyPage(() => import('../features/publicdata/IndicatorPage'));
export const PublicMonitoringReportPage = lazyPage(() => import('../features/publicdata/MonitoringReportPage'));
// @pages:dex — 数据交换 (issue 19)
export const TxPushLogsPage = lazyPage(() => import('../features/dex/TxPushLogsPage'));
export const RegAuditLogsPage = lazyPage(() => import('../features/dex/RegAuditLogsPage'));
// @pages:material — 材料信息价 (issue 19): the back office's page and the portal's public page (no antd)
export const MaterialPricesPage = lazyPage(() => import('../features/material/MaterialPricesPage'));
export const MaterialPublicPage = lazyPage(() => import('../features/material/MaterialPublicPage'));
export const OpeningHallPage = lazyPage(() => import('../features/opening/OpeningHallPage'));
// @pages:experts — expert extraction (issue 16)
export const ExtractListPage = lazyPage(() => import('../features/experts/ExtractListPage'));
export const ExtractionVerifyPage = lazyPage(() => import('../features/experts/VerifyPage'));
export const ExtractionRecordPage = lazyPage(() => import('../features/experts/RecordPrintPage'));
