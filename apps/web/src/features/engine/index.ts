// What the engine's pages offer other features: a node's record list (with a domain module's own handling of some
// operations) and the node an engine page serves.
export { type ListVariant, type RecordListOverride, RecordListPage } from './RecordList';
export { type EngineNode, useEngineNode } from './useEngineNode';
