import type { TenderSection } from '@ks/contracts';
import { Segmented, Space } from 'antd';
import { type ReactNode, useState } from 'react';

/**
 * The section chooser of the five-in-one tabs (场地预约, 招标公告, 保证金, 专家抽取): one segment per section, the first
 * chosen at the start, and below it what the tab shows for the chosen section.
 */
export function SectionSwitch({
  sections,
  testId,
  children,
}: {
  sections: readonly TenderSection[];
  testId: string;
  children: (section: TenderSection) => ReactNode;
}) {
  const [chosen, setChosen] = useState<string | null>(null);
  const section = sections.find((s) => s.id === chosen) ?? sections[0];
  if (!section) return null;
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <Segmented
        value={section.id}
        onChange={(v) => setChosen(String(v))}
        options={sections.map((s) => ({ value: s.id, label: `${s.code} ${s.name}` }))}
        data-testid={testId}
      />
      {children(section)}
    </Space>
  );
}
