import { costAnalysisSchema } from './cost';
import { paths } from './paths';

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
} as const;
