import { FilePdfOutlined, FolderOutlined, PlaySquareOutlined } from '@ant-design/icons';
import { HELP_TEXT, type HelpGroup } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Card, Drawer, Spin, Tabs, Tree, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { previewUrlQuery } from '../../api/files';
import { faqListQuery, type HelpPlace, helpTreeQuery } from '../../api/help';
import { Empty } from '../../components/placeholders/Empty';

/** Which tab the viewer opens on. */
export type HelpTab = 'help' | 'faq';

/** The first file of the tree (the viewer shows it when it opens). */
export function firstFile(groups: readonly HelpGroup[]): HelpGroup | null {
  for (const g of groups) if (g.children.length) return g.children[0]!;
  return null;
}

function findNode(groups: readonly HelpGroup[], id: string | null): HelpGroup | null {
  if (!id) return null;
  for (const g of groups) {
    if (g.id === id) return g;
    const f = g.children.find((c) => c.id === id);
    if (f) return f;
  }
  return null;
}

/** A help file: the PDF in a frame, or the video player, from its signed preview address. */
function HelpFile({ file }: { file: HelpGroup }) {
  const src = useQuery({ ...previewUrlQuery(file.fileId ?? ''), enabled: Boolean(file.fileId) });
  if (src.isPending) return <Spin style={{ display: 'block', margin: '120px auto' }} />;
  if (!src.data?.url) return <Empty message={HELP_TEXT.noHelp} testId="help-empty" />;
  return file.kind === 'video' ? (
    // biome-ignore lint/a11y/useMediaCaption: help videos are uploaded without caption tracks
    <video
      key={src.data.url}
      src={src.data.url}
      controls
      style={{ width: '100%', maxHeight: 'calc(100vh - 220px)', background: '#000' }}
      data-testid="help-video"
    />
  ) : (
    <iframe
      key={src.data.url}
      title={file.fileName}
      src={src.data.url}
      style={{ width: '100%', height: 'calc(100vh - 200px)', border: 'none' }}
      data-testid="help-pdf"
    />
  );
}

function HelpPane({ place }: { place: HelpPlace }) {
  const tree = useQuery(helpTreeQuery(place));
  const groups = tree.data ?? [];
  const [selected, setSelected] = useState<string | null>(null);
  useEffect(() => {
    if (tree.data) setSelected((s) => (findNode(tree.data, s) ? s : (firstFile(tree.data)?.id ?? null)));
  }, [tree.data]);
  const treeData = useMemo(
    () =>
      groups.map((g) => ({
        key: g.id,
        title: <span data-testid="help-group">{g.groupName}</span>,
        icon: <FolderOutlined />,
        children: g.children.map((f) => ({
          key: f.id,
          title: <span data-testid="help-file">{f.fileName}</span>,
          icon: f.kind === 'video' ? <PlaySquareOutlined /> : <FilePdfOutlined style={{ color: '#d4380d' }} />,
          isLeaf: true,
        })),
      })),
    [groups],
  );
  if (tree.isPending) return <Spin style={{ display: 'block', margin: '120px auto' }} />;
  if (!groups.length) return <Empty testId="help-empty" />;
  const node = findNode(groups, selected);
  let right: React.ReactNode;
  if (!node) right = <Empty message={HELP_TEXT.noTemplate} testId="help-empty" />;
  else if (node.fileId) right = <HelpFile file={node} />;
  else right = <Empty message={HELP_TEXT.noHelp} testId="help-empty" />;
  return (
    <div style={{ display: 'flex', gap: 16, minHeight: 400 }}>
      <div style={{ width: 260, flex: 'none', borderInlineEnd: '1px solid rgba(5,5,5,0.06)', paddingInlineEnd: 8 }}>
        <Tree
          showIcon
          blockNode
          defaultExpandAll
          selectedKeys={selected ? [selected] : []}
          onSelect={(keys) => keys[0] && setSelected(String(keys[0]))}
          treeData={treeData}
          data-testid="help-tree"
        />
      </div>
      <div style={{ flex: 1, minWidth: 0 }}>{right}</div>
    </div>
  );
}

function FaqPane({ place }: { place: HelpPlace }) {
  const faq = useQuery(faqListQuery(place));
  if (faq.isPending) return <Spin style={{ display: 'block', margin: '120px auto' }} />;
  if (!faq.data?.length) return <Empty testId="faq-empty" />;
  return (
    <div style={{ display: 'grid', gap: 12 }}>
      {faq.data.map((f) => (
        <Card key={f.id} size="small" data-testid="faq-card" title={<span>问：{f.question}</span>}>
          <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap' }}>答：{f.answer}</Typography.Paragraph>
        </Card>
      ))}
    </div>
  );
}

/**
 * The help viewer (screen 10): the help of the current system (and node) — a tree of groups and files on the left with
 * the chosen PDF in a frame or the video player on the right, and the question-and-answer cards. Empty: 暂无数据; a
 * group without files: 暂无帮助！; nothing chosen: 暂无模板！.
 */
export function HelpViewer({
  open,
  place,
  title,
  tab,
  onTab,
  onClose,
}: {
  open: boolean;
  place: HelpPlace | null;
  title: string;
  tab: HelpTab;
  onTab: (tab: HelpTab) => void;
  onClose: () => void;
}) {
  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={title}
      size={1100}
      destroyOnHidden
      data-testid="help-viewer"
      styles={{ body: { paddingTop: 8 } }}
    >
      {place ? (
        <Tabs
          activeKey={tab}
          onChange={(k) => onTab(k as HelpTab)}
          items={[
            { key: 'help', label: HELP_TEXT.tabHelp, children: <HelpPane place={place} /> },
            { key: 'faq', label: HELP_TEXT.tabFaq, children: <FaqPane place={place} /> },
          ]}
        />
      ) : (
        <Empty message="请先选择业务系统" testId="help-empty" />
      )}
    </Drawer>
  );
}
