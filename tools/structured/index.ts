/**
 * The structured family (the seed's "structured v2" 15 tools, and text_codepoints): offline,
 * deterministic helpers that run on the host. Tools that read files (file_hash, csv_query,
 * xml_extract) stay inside `workspaceRoot`.
 */
import type { Tool } from '../core/tool';
import { defineToolset } from '../core/toolset';
import { baseConvert } from './base-convert';
import type { StructuredDeps } from './common';
import { cronNext } from './cron-next';
import { csvQuery } from './csv-query';
import { datetime } from './datetime';
import { durationConvert } from './duration-convert';
import { fileHash } from './file-hash';
import { jsonPath } from './json-path';
import { randomGenerate } from './random-generate';
import { regexExtract, regexReplace } from './regex-tools';
import { stringDistance } from './string-distance';
import { textCodepoints } from './text-codepoints';
import { textDiff } from './text-diff';
import { unitConvert } from './unit-convert';
import { uuidGenerate } from './uuid-generate';
import { xmlExtract } from './xml-extract';

export type { StructuredDeps } from './common';

/** Also the utility family's toolset (calculate, text_transform): the same kind of offline help. */
export const STRUCTURED_TOOLSET = defineToolset(
  'structured',
  'Offline text and data helpers: regex, JSON, XML, CSV, dates, units, hashes, diffs, arithmetic.',
);

export function structuredTools(deps: StructuredDeps): Tool[] {
  return [
    regexExtract,
    regexReplace,
    textDiff,
    jsonPath,
    xmlExtract(deps),
    csvQuery(deps),
    baseConvert,
    unitConvert,
    durationConvert,
    stringDistance,
    randomGenerate,
    uuidGenerate(deps),
    fileHash(deps),
    datetime(deps),
    cronNext(deps),
    textCodepoints,
  ] as Tool[];
}
