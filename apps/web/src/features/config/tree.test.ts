import { describe, expect, it } from 'vitest';
import { applyMove, sampleTree, uuid } from './testkit';
import { type DropInfo, dropToMove, flatten, locate, moveUnder, parentIds, stepMove } from './tree';

// A (A1, A2, A3), B (B1), C — positions as antd Tree gives them
const ID = { A: uuid(1), A1: uuid(11), A2: uuid(12), A3: uuid(13), B: uuid(2), B1: uuid(21), C: uuid(3) };
const POS: Record<keyof typeof ID, string> = {
  A: '0-0',
  A1: '0-0-0',
  A2: '0-0-1',
  A3: '0-0-2',
  B: '0-1',
  B1: '0-1-0',
  C: '0-2',
};

/** The onDrop info antd gives: relative -1 (before), 0 (onto), 1 (after), expanded state of the drop node. */
function drop(drag: keyof typeof ID, onto: keyof typeof ID, relative: -1 | 0 | 1, expanded = false): DropInfo {
  const pos = POS[onto];
  const index = Number(pos.split('-').at(-1));
  return {
    dragNode: { key: ID[drag] },
    node: { key: ID[onto], pos, expanded },
    dropPosition: index + relative,
    dropToGap: relative !== 0,
  };
}

/** Titles of the tree after the server applies the move, to check the request lands where the drop showed. */
function titlesAfter(req: { id: string; parentId: string | null; index: number }) {
  const names = Object.fromEntries(Object.entries(ID).map(([k, v]) => [v, k]));
  const walk = (list: ReturnType<typeof sampleTree>): unknown[] =>
    list.map((it) => (it.children.length ? { [names[it.id]]: walk(it.children) } : names[it.id]));
  return walk(applyMove(sampleTree(), req));
}

describe('dropToMove', () => {
  const tree = sampleTree();

  it('onto a node: becomes its first child', () => {
    expect(dropToMove(drop('C', 'B', 0), tree)).toEqual({ id: ID.C, parentId: ID.B, index: 0 });
    expect(dropToMove(drop('A1', 'B1', 0), tree)).toEqual({ id: ID.A1, parentId: ID.B1, index: 0 });
  });

  it('down within the same parent: the index counts the siblings without the moved item', () => {
    const req = dropToMove(drop('A1', 'A3', 1), tree);
    expect(req).toEqual({ id: ID.A1, parentId: ID.A, index: 2 });
    expect(titlesAfter(req!)).toEqual([{ A: ['A2', 'A3', 'A1'] }, { B: ['B1'] }, 'C']);
    const mid = dropToMove(drop('A1', 'A2', 1), tree);
    expect(mid).toEqual({ id: ID.A1, parentId: ID.A, index: 1 });
    expect(titlesAfter(mid!)).toEqual([{ A: ['A2', 'A1', 'A3'] }, { B: ['B1'] }, 'C']);
  });

  it('up within the same parent', () => {
    const req = dropToMove(drop('A3', 'A1', -1), tree);
    expect(req).toEqual({ id: ID.A3, parentId: ID.A, index: 0 });
    expect(titlesAfter(req!)).toEqual([{ A: ['A3', 'A1', 'A2'] }, { B: ['B1'] }, 'C']);
    expect(dropToMove(drop('A3', 'A1', 1), tree)).toEqual({ id: ID.A3, parentId: ID.A, index: 1 });
  });

  it('a drop that leaves the item where it is sends nothing', () => {
    expect(dropToMove(drop('A2', 'A1', 1), tree)).toBeNull();
    expect(dropToMove(drop('A2', 'A3', -1), tree)).toBeNull();
    expect(dropToMove(drop('A1', 'A1', 0), tree)).toBeNull();
    expect(dropToMove(drop('C', 'B', 1), tree)).toBeNull();
  });

  it('to another parent, before or after a node there', () => {
    expect(dropToMove(drop('B1', 'A1', 1), tree)).toEqual({ id: ID.B1, parentId: ID.A, index: 1 });
    expect(dropToMove(drop('B1', 'A1', -1), tree)).toEqual({ id: ID.B1, parentId: ID.A, index: 0 });
    expect(dropToMove(drop('B1', 'A3', 1), tree)).toEqual({ id: ID.B1, parentId: ID.A, index: 3 });
  });

  it('from a child to the top level (parentId null)', () => {
    const req = dropToMove(drop('A1', 'B', -1), tree);
    expect(req).toEqual({ id: ID.A1, parentId: null, index: 1 });
    expect(titlesAfter(req!)).toEqual([{ A: ['A2', 'A3'] }, 'A1', { B: ['B1'] }, 'C']);
    expect(dropToMove(drop('C', 'A', -1), tree)).toEqual({ id: ID.C, parentId: null, index: 0 });
    expect(dropToMove(drop('B1', 'C', 1), tree)).toEqual({ id: ID.B1, parentId: null, index: 3 });
  });

  it('top level, down past a collapsed node with children: after it, not into it', () => {
    const req = dropToMove(drop('A', 'B', 1, false), tree);
    expect(req).toEqual({ id: ID.A, parentId: null, index: 1 });
    expect(titlesAfter(req!)).toEqual([{ B: ['B1'] }, { A: ['A1', 'A2', 'A3'] }, 'C']);
  });

  it('just below an expanded node with children: its first child', () => {
    expect(dropToMove(drop('C', 'A', 1, true), tree)).toEqual({ id: ID.C, parentId: ID.A, index: 0 });
    // an expanded leaf has no children to go before: after it
    expect(dropToMove(drop('A1', 'C', 1, true), tree)).toEqual({ id: ID.A1, parentId: null, index: 3 });
  });

  it('never into the dragged item itself or its subtree, nor with unknown keys', () => {
    expect(dropToMove(drop('A', 'A2', 0), tree)).toBeNull();
    expect(dropToMove(drop('A', 'A2', 1), tree)).toBeNull();
    expect(dropToMove(drop('A', 'A', 0), tree)).toBeNull();
    expect(
      dropToMove(
        { dragNode: { key: 'nope' }, node: { key: ID.A, pos: '0-0' }, dropPosition: 0, dropToGap: false },
        tree,
      ),
    ).toBeNull();
  });
});

describe('stepMove (上移 / 下移)', () => {
  const tree = sampleTree();
  it('moves one place among the siblings, none past either end', () => {
    expect(stepMove(tree, ID.A2, -1)).toEqual({ id: ID.A2, parentId: ID.A, index: 0 });
    expect(stepMove(tree, ID.A2, 1)).toEqual({ id: ID.A2, parentId: ID.A, index: 2 });
    expect(titlesAfter(stepMove(tree, ID.A1, 1)!)).toEqual([{ A: ['A2', 'A1', 'A3'] }, { B: ['B1'] }, 'C']);
    expect(stepMove(tree, ID.A1, -1)).toBeNull();
    expect(stepMove(tree, ID.A3, 1)).toBeNull();
    expect(stepMove(tree, ID.B, -1)).toEqual({ id: ID.B, parentId: null, index: 0 });
    expect(stepMove(tree, ID.B1, 1)).toBeNull();
    expect(stepMove(tree, 'nope', 1)).toBeNull();
  });
});

describe('moveUnder (移动到)', () => {
  const tree = sampleTree();
  it('makes the item the last child of the target, or last at the top level', () => {
    expect(moveUnder(tree, ID.C, ID.A)).toEqual({ id: ID.C, parentId: ID.A, index: 3 });
    expect(moveUnder(tree, ID.A1, null)).toEqual({ id: ID.A1, parentId: null, index: 3 });
    expect(moveUnder(tree, ID.A1, ID.B1)).toEqual({ id: ID.A1, parentId: ID.B1, index: 0 });
  });
  it('refuses its own subtree, its current parent and unknown items', () => {
    expect(moveUnder(tree, ID.A, ID.A1)).toBeNull();
    expect(moveUnder(tree, ID.A, ID.A)).toBeNull();
    expect(moveUnder(tree, ID.A1, ID.A)).toBeNull();
    expect(moveUnder(tree, ID.C, null)).toBeNull();
    expect(moveUnder(tree, ID.C, 'nope')).toBeNull();
  });
});

describe('tree helpers', () => {
  const tree = sampleTree();
  it('locates items with parent and position, flattens depth first, lists parents', () => {
    expect(locate(tree, ID.A2)).toMatchObject({ parentId: ID.A, index: 1 });
    expect(locate(tree, ID.C)).toMatchObject({ parentId: null, index: 2 });
    expect(flatten(tree).map((x) => x.gnCoding)).toEqual(['A', 'A1', 'A2', 'A3', 'B', 'B1', 'C']);
    expect(parentIds(tree)).toEqual([ID.A, ID.B]);
  });
});
