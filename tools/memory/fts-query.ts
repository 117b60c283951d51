/** The memory family's FTS5 query quoting is the shared one (tools/common/fts-query.ts). */
export { toFtsQuery } from '../common/fts-query';
