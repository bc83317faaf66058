/** What the library feature offers other features: the current standard template of a series (信用承诺书 …). */
export { StandardTemplate } from './StandardTemplate';
