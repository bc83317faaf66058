import { Navigate, type RouteObject } from 'react-router';
import { NotFoundView } from '../features/errors/NotFoundView';
import {
  EvalOverviewPage,
  EvalPanelPage,
  EvalReviewProcessPage,
  EvalRoomPage,
  ExpertWorkbenchPage,
} from '../features/evaluation/pages';
import { PENDING_ROUTE_PREFIXES } from '../lib/paths';
import { CreditPublicEntry } from './CreditPublicEntry';
import { BusinessLanding, Landing } from './Landing';
import {
  ActivatePage,
  AdminInfoPage,
  AllSystemPage,
  AntdShell,
  AppLayout,
  ApplyDetailPage,
  ApplyIndexPage,
  AuditLevelPage,
  AuditWayPage,
  BidFilesPage,
  BidToolPage,
  CaLandingPage,
  CaLoginPage,
  CaRegisterPage,
  CommitmentBookDetailPage,
  CommitmentBookPage,
  CompanyInfoPage,
  CostIndexPage,
  CostPublicityPage,
  CostTreePage,
  CreditAnalysisPage,
  CreditCodeLoginPage,
  CreditInfoPage,
  CreditPublicListPage,
  DynamicDetailPage,
  DynamicIndexPage,
  EchartsSettingPage,
  EnterpriseRegisterPage,
  ExtractionRecordPage,
  ExtractionVerifyPage,
  ExtractListPage,
  FeedbackAdminPage,
  FiveInOneDetailPage,
  FiveInOneListPage,
  GuaranteePage,
  HelpManagePage,
  JudgePage,
  JumpNoticeCfgPage,
  LedgerVerifyPage,
  LibraryFileDownloadPage,
  LibraryLetterBookPage,
  LibrarySystemPlatformPage,
  LibraryVideoDownloadPage,
  LockPage,
  LoginPage,
  ManagementInfoPage,
  MarketDetailPage,
  MarketListPage,
  MarketPage,
  MaterialPricesPage,
  MaterialPublicPage,
  MenuSetUpPage,
  MessagePublishPage,
  MonitorPage,
  NoticeDetailPage,
  OpeningHallPage,
  OpeningOverviewPage,
  PageConfigPage,
  PendingPage,
  PermissConfigPage,
  PermissionsSetPage,
  PersonnelInfoPage,
  PortalNoticesPage,
  ProductConfigPage,
  PublicDetailsListPage,
  PublicIndicatorPage,
  PublicMonitoringReportPage,
  PublicPerDetailsPage,
  PublicPriceLimitPage,
  RealNamePage,
  RegAuditLogsPage,
  RegistrationProgressPage,
  ServiceConsolePage,
  SetTypeCardPage,
  SetUpFormPage,
  SetUpListPage,
  SmsOutboxPage,
  StatsCompleteCountPage,
  StatsProgressPage,
  StatsTransactionsPage,
  StyleTemplatePage,
  SystemNoticePage,
  TenderRegistrationPage,
  TransacPage,
  TransactPage,
  TxPushLogsPage,
  UserCenterPage,
  VenueBookingPage,
  VenueCalendarPage,
  VenuePublicPage,
} from './pages';
import { RouteErrorPage } from './RouteErrorPage';
import { RouteGuard } from './RouteGuard';

/**
 * The route table (spec §2). Only routes whose pages exist are registered; add new ones here (above the catch-all).
 * The root layout route applies the guard. `/` is the public portal in login mode ggfw and the sign-in page in
 * modes login and ywbl; `/admin-business` exists in mode ywbl only (see Landing).
 */
export const routes: RouteObject[] = [
  {
    element: <RouteGuard />,
    errorElement: <RouteErrorPage />,
    children: [
      { index: true, element: <Landing /> },
      // public portal (plain CSS, no antd)
      { path: 'transac', element: <TransacPage /> },
      { path: 'transac-news', element: <NoticeDetailPage /> },
      { path: 'market', element: <MarketPage /> },
      { path: 'market-list', element: <MarketListPage /> },
      { path: 'market-details', element: <MarketDetailPage /> },
      { path: 'admin-business', element: <BusinessLanding /> },
      // @routes:venue — 场地占用公示: public (PUBLIC_PATHS /venue), plain CSS in the portal frame
      { path: 'venue', element: <VenuePublicPage /> },
      // @routes:ledger — 开评标日志校验: public (PUBLIC_PATHS /bid/ledger), plain CSS in the portal frame
      { path: 'bid/ledger', element: <LedgerVerifyPage /> },
      // @routes:material-public — 材料信息价: public (PUBLIC_PATHS /materialPrices), plain CSS in the portal frame
      { path: 'materialPrices', element: <MaterialPublicPage /> },
      {
        // 信用公示: public; visitors see it in the portal frame, signed-in users inside the shell (its child)
        path: 'credit/creditPublicList',
        element: <CreditPublicEntry />,
        children: [{ index: true, element: <CreditPublicListPage />, errorElement: <RouteErrorPage /> }],
      },
      {
        // everything built with antd
        element: <AntdShell />,
        children: [
          { path: 'login', element: <LoginPage /> },
          // @routes:ca — CA certificate sign-in (public)
          { path: 'caLoginPage', element: <CaLandingPage /> },
          { path: 'caLogin', element: <CaLoginPage /> },
          { path: 'caRegister', element: <CaRegisterPage /> },
          // @routes:register — public (PUBLIC_PATHS /creditCode and /realName with their children)
          { path: 'creditCode', element: <CreditCodeLoginPage /> },
          { path: 'creditCode/register', element: <EnterpriseRegisterPage /> },
          { path: 'creditCode/progress', element: <RegistrationProgressPage /> },
          { path: 'creditCode/activate', element: <ActivatePage /> },
          { path: 'realName', element: <RealNamePage /> },
          // @routes:experts-public — the extraction verification (public: PUBLIC_PATHS)
          { path: 'expertExtraction/verify', element: <ExtractionVerifyPage /> },
          // the developers' SMS outbox (public; the server answers 404 in production)
          { path: 'smsOutbox', element: <SmsOutboxPage /> },
          {
            // the signed-in shell: header, user dropdown, and the chosen system's sidebar
            element: <AppLayout />,
            children: [
              {
                // errors inside the signed-in layout keep the header
                errorElement: <RouteErrorPage />,
                children: [
                  { path: 'system', element: <Navigate to="pageConfig" replace /> },
                  { path: 'system/pageConfig', element: <PageConfigPage /> },
                  { path: 'system/portalNotices', element: <PortalNoticesPage /> },
                  { path: 'system/systemNotice', element: <SystemNoticePage /> },
                  // @routes:shell
                  { path: 'judge', element: <JudgePage /> },
                  { path: 'userCenter/uCenter', element: <UserCenterPage /> },
                  { path: 'lock', element: <LockPage /> },
                  // @routes:tender
                  { path: 'fiveInOne/list', element: <FiveInOneListPage /> },
                  { path: 'fiveInOne/detail', element: <FiveInOneDetailPage /> },
                  { path: 'fiveInOne/registration', element: <TenderRegistrationPage /> },
                  // @routes:opening — the remote opening hall (issue 17), before the pending bid/* pages
                  { path: 'bid/overview', element: <OpeningOverviewPage /> },
                  { path: 'bid/bidMeet', element: <OpeningHallPage /> },
                  // @routes:monitor — 监督台, the supervision console (issue 17)
                  { path: 'bid/monitor', element: <MonitorPage /> },
                  // @routes:evaluation — bid evaluation (issue 17): the overview, the room's steps, the panel views and
                  // the experts' workbench; no longer pending (BUSINESS_ROUTE_PREFIXES keeps them node pages)
                  { path: 'bid/reviewProcess', element: <EvalOverviewPage /> },
                  { path: 'bidEvaluationSys', element: <Navigate to="overview" replace /> },
                  { path: 'bidEvaluationSys/overview', element: <EvalOverviewPage /> },
                  { path: 'bidEvaluationSys/reviewProcess/:bianma', element: <EvalReviewProcessPage /> },
                  { path: 'bidEvaluationSys/ZSbidEvaluation', element: <EvalPanelPage panel="ZS" /> },
                  { path: 'bidEvaluationSys/JSbidEvaluation', element: <EvalPanelPage panel="JS" /> },
                  { path: 'bidEvaluationSys/SWbidEvaluation', element: <EvalPanelPage panel="SW" /> },
                  { path: 'bidStep', element: <EvalRoomPage /> },
                  { path: 'bidStep/:step', element: <EvalRoomPage /> },
                  { path: 'bidZj', element: <Navigate to="KbZj" replace /> },
                  { path: 'bidZj/KbZj', element: <ExpertWorkbenchPage done={false} /> },
                  { path: 'bidZj/YsZj', element: <ExpertWorkbenchPage done /> },
                  // @routes:cost — 文件分析 (issue 18): cost files and their detection; a file's cost tree
                  { path: 'fileAnalysis', element: <Navigate to="index" replace /> },
                  { path: 'fileAnalysis/index', element: <CostIndexPage /> },
                  { path: 'fileAnalysis/deatil', element: <CostTreePage /> },
                  { path: 'fileAnalysis/publicity', element: <CostPublicityPage /> },
                  // @routes:dex — 数据交换 (issue 19): 交易推送 and 监管审核
                  { path: 'dexRecords', element: <Navigate to="txPushLogs" replace /> },
                  { path: 'dexRecords/txPushLogs', element: <TxPushLogsPage /> },
                  { path: 'dexRecords/regAuditLogs', element: <RegAuditLogsPage /> },
                  // @routes:publicdata — 公共数据 (issue 19); no longer pending (BUSINESS_ROUTE_PREFIXES keeps them node pages)
                  { path: 'demoPublicPage', element: <Navigate to="detailsList" replace /> },
                  { path: 'demoPublicPage/detailsList', element: <PublicDetailsListPage /> },
                  { path: 'demoPublicPage/perDetails', element: <PublicPerDetailsPage /> },
                  { path: 'demoPublicPage/priceLimitDetails', element: <PublicPriceLimitPage /> },
                  { path: 'demoPublicPage/indicatorDet', element: <PublicIndicatorPage /> },
                  { path: 'demoPublicPage/monitoringReport', element: <PublicMonitoringReportPage /> },
                  // business pages of later releases: wired by node property, shown as not yet available
                  ...PENDING_ROUTE_PREFIXES.flatMap((p) => [
                    { path: p, element: <PendingPage /> },
                    { path: `${p}/*`, element: <PendingPage /> },
                  ]),
                  // @routes:config
                  { path: 'system/allSystem', element: <AllSystemPage /> },
                  { path: 'system/menuSetUp', element: <MenuSetUpPage /> },
                  { path: 'system/setUpList', element: <SetUpListPage /> },
                  { path: 'system/setUpForm', element: <SetUpFormPage /> },
                  { path: 'system/setTypeCard', element: <SetTypeCardPage /> },
                  { path: 'system/styleTemplate', element: <StyleTemplatePage /> },
                  { path: 'system/echartsSetting', element: <EchartsSettingPage /> },
                  { path: 'system/jumpNoticeCfg', element: <JumpNoticeCfgPage /> },
                  { path: 'configPage/productConfig', element: <ProductConfigPage /> },
                  // @routes:permission
                  { path: 'system/permissionsSet', element: <PermissionsSetPage /> },
                  { path: 'system/permissConfig', element: <PermissConfigPage /> },
                  { path: 'system/auditLevel', element: <AuditLevelPage /> },
                  { path: 'system/auditWay', element: <AuditWayPage /> },
                  // @routes:accounts
                  { path: 'system/adminInfo', element: <AdminInfoPage /> },
                  { path: 'system/messagePublish', element: <MessagePublishPage /> },
                  { path: 'system/personnelInfo', element: <PersonnelInfoPage /> },
                  { path: 'system/managementInfo', element: <ManagementInfoPage /> },
                  { path: 'system/companyInfo', element: <CompanyInfoPage /> },
                  { path: 'system/transact', element: <TransactPage /> },
                  // @routes:credit-public
                  { path: 'credit/analysis', element: <CreditAnalysisPage /> },
                  { path: 'credit/commitmentbook', element: <CommitmentBookPage /> },
                  { path: 'credit/commitmentbookDetail', element: <CommitmentBookDetailPage /> },
                  // @routes:help
                  { path: 'system/helpManage', element: <HelpManagePage /> },
                  { path: 'system/serviceConsole', element: <ServiceConsolePage /> },
                  // @routes:engine
                  { path: 'dynamicPage/dynamicIndex', element: <DynamicIndexPage /> },
                  { path: 'dynamicPage/dynamicDetail', element: <DynamicDetailPage /> },
                  { path: 'applyIndex', element: <ApplyIndexPage /> },
                  { path: 'applyDetail', element: <ApplyDetailPage /> },
                  // @routes:credit
                  { path: 'credit/companyInfo', element: <CreditInfoPage /> },
                  // @routes:bids
                  { path: 'sealedBid/index', element: <BidFilesPage /> },
                  { path: 'sealedBid/tool', element: <BidToolPage /> },
                  // @routes:experts
                  { path: 'expertExtraction/extractList', element: <ExtractListPage /> },
                  { path: 'expertExtraction/extractRecord', element: <ExtractionRecordPage /> },
                  // @routes:feedback
                  { path: 'system/feedback', element: <FeedbackAdminPage /> },
                  // @routes:venue — before the pending meetingVenue/* pages (a path ranks above a splat)
                  { path: 'meetingVenue/meeting', element: <VenueCalendarPage /> },
                  { path: 'meetingVenue/booking', element: <VenueBookingPage /> },
                  // @routes:deposits — before the pending custom/* pages (a path ranks above a splat)
                  { path: 'custom/guarantee', element: <GuaranteePage /> },
                  // @routes:stats — 统计分析 (issue 19), before the pending custom/* pages
                  { path: 'custom/statistics', element: <StatsTransactionsPage /> },
                  { path: 'custom/completeCount', element: <StatsCompleteCountPage /> },
                  { path: 'custom/viewProgress', element: <StatsProgressPage /> },
                  // @routes:material — 材料信息价 (issue 19), before the pending custom/* pages
                  { path: 'custom/materialPrices', element: <MaterialPricesPage /> },
                  // @routes:library — 资料库 (issue 19), before the pending productCenter/* and standardFile/* pages
                  { path: 'productCenter/fileDownload', element: <LibraryFileDownloadPage /> },
                  { path: 'productCenter/videoDownload', element: <LibraryVideoDownloadPage /> },
                  { path: 'productCenter/systemPlatform', element: <LibrarySystemPlatformPage /> },
                  { path: 'standardFile/letterBook', element: <LibraryLetterBookPage /> },
                ],
              },
            ],
          },
        ],
      },
      // unknown paths (the guard has already sent anonymous visitors to / unless the path is public)
      { path: '*', element: <NotFoundView /> },
    ],
  },
];
