import type { MenuItem } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { mainMenusQuery } from '../../api/shell';
import { findBy } from '../../lib/menuTree';
import { getGnCoding, useSystemCoding } from '../../lib/sessionHooks';

export interface EngineNode {
  systemCoding: string;
  gnCoding: string;
  /** the node's menu item in the chosen system's sidebar, once loaded (title, style, node property) */
  menu: MenuItem | null;
  title: string;
  /** table or card, from the menu item (a `card` node property is always cards) */
  style: 'table' | 'card';
}

/**
 * The node an engine page serves: gnCoding and systemCoding from the URL query (the sidebar's click routing sets
 * them), else the node last opened and the chosen system; its menu item for the title and the display style.
 */
export function useEngineNode(): EngineNode {
  const [params] = useSearchParams();
  const chosen = useSystemCoding();
  const systemCoding = params.get('systemCoding') || chosen || '';
  const gnCoding = params.get('gnCoding') || getGnCoding() || '';
  const menus = useQuery({ ...mainMenusQuery(systemCoding), enabled: Boolean(systemCoding) });
  const menu = gnCoding && menus.data ? findBy(menus.data, (m) => m.gnCoding === gnCoding) : null;
  const style = menu && (menu.style === 'card' || menu.nodeProperties === 'card') ? 'card' : 'table';
  return { systemCoding, gnCoding, menu, title: menu?.title ?? gnCoding, style };
}

/** The query string of a node's page, with extras (id, mode …); empty extras are left out. */
export function nodeQuery(
  node: Pick<EngineNode, 'gnCoding' | 'systemCoding'>,
  extra: Record<string, string | null | undefined> = {},
) {
  const q = new URLSearchParams({ gnCoding: node.gnCoding, systemCoding: node.systemCoding });
  for (const [k, v] of Object.entries(extra)) if (v) q.set(k, v);
  return q.toString();
}
