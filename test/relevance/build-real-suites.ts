/**
 * Builds rule-judged suites from the real catalogue dump in ../shared (derived data: never commit
 * the output):
 *   - real-mpn: a deterministic sample of about 300 MPNs, round-robin over categories: exact,
 *     lower-case, punctuation-stripped and one-character typo queries (rules: src/relevance/mpn-suite.ts);
 *   - real-param: 60 parametric queries ("100nF 50V 0603 multilayer ceramic capacitors"), judged from
 *     the records' spec numbers, units, packages and categories (rules: src/relevance/param-suite.ts);
 *   - real-count: "dual"/"quad" queries per category ("dual operational amplifier"), judged from the
 *     records' channel counts (rules: src/relevance/count-suite.ts);
 *   - need-tune, need-test: needs described in words ("isolate a microcontroller input from mains with light"),
 *     the two halves of test/relevance/need-rules.json, judged by its rules (src/relevance/need-suite.ts);
 *   - real-nl: 100 KiCad symbol descriptions ("Single NAND Gate, Low-Voltage CMOS"), judged by the
 *     symbols' exact LCSC matches (rules: src/relevance/kicad-suite.ts); needs ../shared/data/kicad_symbols.jsonl.
 *
 *   npx tsx test/relevance/build-real-suites.ts [--parts FILE] [--manufacturers FILE] [--categories FILE] [--out FILE] [--param-out FILE] [--count-out FILE] [--kicad FILE] [--nl-out FILE]
 *
 * Defaults: ../shared/data/catalog/parts.jsonl.gz with that folder's manufacturers.json and categories.json,
 * output <tmp>/partsearch-relevance/real-mpn.jsonl and real-param.jsonl, real-count.jsonl, need-tune.jsonl and need-test.jsonl beside it. Judge against an index of the SAME parts file ingested
 * with the SAME manufacturers file (slugs depend on manufacturer alias resolution), e.g.
 *
 *   PARTSEARCH_DATA_DIR=/tmp/real npx partsearch ingest --parts FILE --manufacturers M --categories C --no-embeddings
 *   PARTSEARCH_DATA_DIR=/tmp/real npx partsearch relevance run --use-configured --suite <out> --out real.json
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatSuite } from '../../src/relevance/format.ts';
import { buildRealSuites } from '../../src/relevance/real-suites.ts';

const SHARED = path.resolve(import.meta.dirname, '..', '..', '..', 'shared', 'data', 'catalog');

const { values: v } = parseArgs({
  options: {
    parts: { type: 'string' },
    manufacturers: { type: 'string' },
    categories: { type: 'string' },
    out: { type: 'string' },
    'param-out': { type: 'string' },
    'count-out': { type: 'string' },
    kicad: { type: 'string' },
    'nl-out': { type: 'string' },
    seed: { type: 'string' },
  },
});
const partsFile = path.resolve(v.parts ?? path.join(SHARED, 'parts.jsonl.gz'));
if (!fs.existsSync(partsFile)) {
  console.error(`no real catalogue at ${partsFile}; nothing to build (the real suites are optional)`);
  process.exit(0);
}
const dir = path.dirname(partsFile);
const mfrFile = v.manufacturers ?? (fs.existsSync(path.join(dir, 'manufacturers.json')) ? path.join(dir, 'manufacturers.json') : null);
const catFile = v.categories ?? (fs.existsSync(path.join(dir, 'categories.json')) ? path.join(dir, 'categories.json') : null);
const out = path.resolve(v.out ?? path.join(os.tmpdir(), 'partsearch-relevance', 'real-mpn.jsonl'));
const paramOut = path.resolve(v['param-out'] ?? path.join(path.dirname(out), 'real-param.jsonl'));
const countOut = path.resolve(v['count-out'] ?? path.join(path.dirname(out), 'real-count.jsonl'));
const nlOut = path.resolve(v['nl-out'] ?? path.join(path.dirname(out), 'real-nl.jsonl'));
const kicadFile = v.kicad ?? (fs.existsSync(path.join(SHARED, '..', 'kicad_symbols.jsonl')) ? path.join(SHARED, '..', 'kicad_symbols.jsonl') : null);

const suites = await buildRealSuites({ parts: partsFile, manufacturers: mfrFile, categories: catFile, kicad: kicadFile }, v.seed ? Number(v.seed) : 42);
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, formatSuite(suites.mpn));
console.log(`${out}: ${suites.mpn.length} queries from ${suites.parts.toLocaleString('en-US')} parts of ${partsFile}`);
fs.writeFileSync(paramOut, formatSuite(suites.param));
console.log(`${paramOut}: ${suites.param.length} parametric queries`);
fs.writeFileSync(countOut, formatSuite(suites.count));
console.log(`${countOut}: ${suites.count.length} count queries`);
for (const half of ['tune', 'test'] as const) {
  const file = path.join(path.dirname(out), `need-${half}.jsonl`);
  const queries = half === 'tune' ? suites.needTune : suites.needTest;
  fs.writeFileSync(file, formatSuite(queries));
  console.log(`${file}: ${queries.length} need-style queries (the ${half} half)`);
}
if (kicadFile) {
  fs.writeFileSync(nlOut, formatSuite(suites.nl));
  console.log(`${nlOut}: ${suites.nl.length} KiCad symbol queries from ${kicadFile}`);
} else console.log('no KiCad symbol file: real-nl not built');
