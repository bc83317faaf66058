// What the guarantee feature offers other features (imported only through this index): the 保证金 panel of a
// section, which the five-in-one project detail shows per section — `SectionDepositPanel({ sectionId })`.
export { SectionDepositPanel } from './SectionDepositPanel';
