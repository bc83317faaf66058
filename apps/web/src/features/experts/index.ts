// What the experts feature offers other features (they may import a feature only through its index.ts): the five-in-one
// project detail's 专家抽取 tab starts an extraction for a section and opens it in the same drawer as the list does.
export { CreateExtractionDialog, type ExtractionSectionPreset } from './CreateExtractionDialog';
export { ExtractionDrawer, STATUS_COLORS } from './ExtractionDrawer';
