import {
  costAchievementSchema,
  costAnalysisSchema,
  costDirectoriesQuerySchema,
  costDirectoriesSchema,
  costFileQuerySchema,
  costParseDataSchema,
  costPublicitySchema,
  costPublishSchema,
  costScoreSchema,
  costSectionQuerySchema,
  costSettingsSchema,
  costStatusSchema,
} from './cost';
import { paths } from './paths';
import { z } from './zod';

const T = '造价文件';

/** Registry entries of the cost files (issue 18). */
export const costApi = {
  costXmlAnalysis: {
    ...paths.costXmlAnalysis,
    summary:
      '解析造价文件（multipart，字段 file：docs/cost-xml.md 所述 XML，UTF-8 或 GBK，≤300MB，流式解析）：返回建设项目—单项工程—单位工程的造价树，或指明行号的错误',
    tag: T,
    auth: true,
    data: costAnalysisSchema,
  },
  costDirectories: {
    ...paths.costDirectories,
    summary:
      '造价文件检测：有投标文件或造价文件的标段（开标时间新的在前），含造价文件数与最近一次检测的状态；分页、关键字',
    tag: T,
    auth: true,
    body: costDirectoriesQuerySchema,
    data: costDirectoriesSchema,
  },
  costStatus: {
    ...paths.costStatus,
    summary: '一个标段的造价文件、投标人与最近一次检测（状态、进度、是否已过时）',
    tag: T,
    auth: true,
    body: costSectionQuerySchema,
    data: costStatusSchema,
  },
  costUpload: {
    ...paths.costUpload,
    summary:
      '上传投标人的造价文件（multipart：sectionId、enterpriseId、file；XML，≤300MB）：先解析，不能解析的指明行号拒收；替换该投标人原有的文件。仅管理员',
    tag: T,
    auth: true,
    data: costStatusSchema,
  },
  costDetection: {
    ...paths.costDetection,
    summary:
      '发起造价文件检测（后台任务，约 5 分钟；同一标段同时只有一个检测，重复发起返回进行中的那个）：汇总一致性、安全文明施工费与规费费率、招标控制价、文件雷同与清单报价雷同、编制信息相同、综合单价异常。仅管理员',
    tag: T,
    auth: true,
    body: costSectionQuerySchema,
    data: costStatusSchema,
  },
  costAchievement: {
    ...paths.costAchievement,
    summary: '最近一次完成的检测结果：每个投标人的风险等级与发现（含证据与涉及的造价树行），每两家之间的雷同度与发现',
    tag: T,
    auth: true,
    body: costSectionQuerySchema,
    data: costAchievementSchema,
  },
  costScore: {
    ...paths.costScore,
    summary: '最近一次完成的检测中每两家投标人清单报价的雷同度矩阵（0–100）',
    tag: T,
    auth: true,
    body: costSectionQuerySchema,
    data: costScoreSchema,
  },
  costParseData: {
    ...paths.costParseData,
    summary: '一份造价文件的造价树（建设项目—单项工程—单位工程）与编制信息',
    tag: T,
    auth: true,
    body: costFileQuerySchema,
    data: costParseDataSchema,
  },
  costSettings: {
    ...paths.costSettings,
    summary:
      '检测参数：安全文明施工费与规费的最低费率、综合单价与投标总价偏离中位数的比例、报价雷同的比例，及平台默认值',
    tag: T,
    auth: true,
    data: z.object({ settings: costSettingsSchema, defaults: costSettingsSchema }),
  },
  costSettingsSave: {
    ...paths.costSettingsSave,
    summary: '保存检测参数（管理员）：此后发起的检测使用；记入操作日志',
    tag: T,
    auth: true,
    body: costSettingsSchema.strict(),
    data: costSettingsSchema,
  },
  costPublicity: {
    ...paths.costPublicity,
    summary:
      '公示（publish: true）或撤回公示（false）一个标段最近一次完成的检测结果摘要（管理员）：检测后更换过造价文件的须重新检测；公示时通知该标段各投标人',
    tag: T,
    auth: true,
    body: costPublishSchema,
    data: costPublicitySchema,
  },
  costPublicitySummary: {
    ...paths.costPublicitySummary,
    summary:
      '检测结果公示：各投标人的风险等级与发现的类别、雷同的投标人组合（不含报价、清单与编制信息等证据）；投标人另见关于本单位文件的发现。管理员与开发者随时可预览，投标人在公示后可看',
    tag: T,
    auth: true,
    body: costSectionQuerySchema,
    data: costPublicitySchema,
  },
} as const;
