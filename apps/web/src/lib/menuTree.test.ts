import { describe, expect, it } from 'vitest';
import { visibleMenus } from '../api/shell';
import { creditMenus, menu } from '../features/shell/testData';
import { defaultActive, firstLeaf, matchRoute, pathTo } from './menuTree';

describe('menu tree helpers', () => {
  const tree = visibleMenus(creditMenus());

  it('keeps only itShows 是 at every depth', () => {
    expect(tree.map((m) => m.gnCoding)).toEqual(['XY_DIR', 'CD_DIR']);
    expect(tree[0].children.map((m) => m.gnCoding)).toEqual(['XY_LIST', 'XY_SCORE']);
  });

  it('default active: first menu’s first child, else the first menu', () => {
    expect(defaultActive(tree)?.gnCoding).toBe('XY_LIST');
    expect(defaultActive([menu({ gnCoding: 'A', title: 'a' })])?.gnCoding).toBe('A');
    expect(defaultActive([])).toBeNull();
  });

  it('first leaf skips disabled items', () => {
    const t = [
      menu({ gnCoding: 'D', title: 'd', children: [menu({ gnCoding: 'X', title: 'x', disabled: true })] }),
      menu({ gnCoding: 'E', title: 'e', children: [menu({ gnCoding: 'Y', title: 'y' })] }),
    ];
    expect(firstLeaf(t)?.gnCoding).toBe('Y');
    expect(firstLeaf([])).toBeNull();
  });

  it('path to an item', () => {
    const venue = tree[1].children[0];
    expect(pathTo(tree, venue.id)).toEqual([tree[1].id, venue.id]);
    expect(pathTo(tree, 'nope')).toBeNull();
  });

  it('matches the route by path and node; record pages by their node; never a directory', () => {
    const loc = (url: string) => {
      const u = new URL(url, 'http://x');
      return { pathname: u.pathname, search: u.search };
    };
    expect(
      matchRoute(tree, loc('/credit/analysis?gnCoding=XY_SCORE&systemCoding=XYGL'), 'XYGL', false, null)?.gnCoding,
    ).toBe('XY_SCORE');
    expect(matchRoute(tree, loc('/credit/analysis?gnCoding=OTHER'), 'XYGL', false, null)).toBeNull();
    expect(matchRoute(tree, loc('/meetingVenue/meeting?gnCoding=CD_VENUE'), 'XYGL', true, null)?.gnCoding).toBe(
      'CD_VENUE',
    );
    expect(matchRoute(tree, loc('/meetingVenue/meeting?gnCoding=CD_VENUE'), 'XYGL', false, null)).toBeNull();
    const dirs = [
      menu({ gnCoding: 'P1', title: 'p1', nodeProperties: 'directory' }),
      menu({ gnCoding: 'P2', title: 'p2', nodeProperties: 'directory' }),
    ];
    // the landing page highlights nothing, whatever was opened before
    expect(matchRoute(dirs, loc('/system/pageConfig'), 'S', false, null)).toBeNull();
    expect(matchRoute(dirs, loc('/system/pageConfig'), 'S', false, 'P2')).toBeNull();
    expect(matchRoute(tree, loc('/system/pageConfig'), 'XYGL', false, 'XY_LIST')).toBeNull();
    // a record of a node: that node
    expect(
      matchRoute(tree, loc('/dynamicPage/dynamicDetail?gnCoding=XY_LIST&id=1'), 'XYGL', false, null)?.gnCoding,
    ).toBe('XY_LIST');
    expect(matchRoute(tree, loc('/system/setUpForm?gnCoding=XY_LIST'), 'XYGL', false, null)).toBeNull();
  });
});
