/**
 * The rule-judged suites of a real catalogue dump (../shared/data/catalog): real-mpn (MPN exact,
 * lower-case, punctuation-stripped and typo queries: mpn-suite.ts), real-param (parametric queries
 * judged from the records: param-suite.ts), real-count ("dual operational amplifier": count-suite.ts)
 * and, when KiCad's symbol dump is given, real-nl (symbol descriptions judged by the symbols' exact
 * LCSC matches: kicad-suite.ts), and need-tune / need-test (needs described in words, judged by the rules of
 * test/relevance/need-rules.json: need-suite.ts). The parts are read and normalised exactly as the ingest
 * does (same identity, last record wins), so the judgments' slugs are those of an index of the same
 * dump ingested with the same manufacturers and categories files. Derived data: never committed.
 */
import { CategoryTree } from '../catalog/categories.ts';
import { ManufacturerRegistry } from '../catalog/manufacturers.ts';
import { PartNormaliser } from '../catalog/normalise.ts';
import type { DumpPart } from '../catalog/part.ts';
import { dumpPartSchema } from '../catalog/dump-schema.ts';
import { ajv } from '../validation.ts';
import { openLines } from '../../ingest/read-lines.ts';
import { readCategoriesFile, readManufacturersFile } from '../../ingest/catalog-files.ts';
import type { RelevanceQuery } from './format.ts';
import { buildMpnSuite, type MpnPart } from './mpn-suite.ts';
import { buildCountSuite } from './count-suite.ts';
import { buildKicadSuite, type KicadPart, type KicadSymbol } from './kicad-suite.ts';
import { buildParamSuite } from './param-suite.ts';
import { buildNeedSuite, readNeedRules, type NeedPart } from './need-suite.ts';

export interface RealSuites {
  mpn: RelevanceQuery[];
  param: RelevanceQuery[];
  count: RelevanceQuery[];
  /** Empty when no KiCad symbol file was given. */
  nl: RelevanceQuery[];
  /** The need-style suite's halves (need-suite.ts). */
  needTune: RelevanceQuery[];
  needTest: RelevanceQuery[];
  /** Distinct parts read (after the ingest's identity rule). */
  parts: number;
}

export async function buildRealSuites(
  files: { parts: string; manufacturers: string | null; categories: string | null; kicad?: string | null },
  seed = 42,
): Promise<RealSuites> {
  const normaliser = new PartNormaliser(
    ManufacturerRegistry.from(files.manufacturers ? readManufacturersFile(files.manufacturers) : []),
    files.categories ? CategoryTree.fromFile(readCategoriesFile(files.categories)) : CategoryTree.fromData([]),
  );
  const validate = ajv.compile(dumpPartSchema);
  const mpnById = new Map<number, MpnPart>();
  const paramById = new Map<number, KicadPart & NeedPart>();
  const source = await openLines(files.parts);
  for await (const { text } of source.lines) {
    if (!text.trim()) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      continue;
    }
    if (!validate(raw)) continue;
    const r = normaliser.normalise(raw as DumpPart);
    mpnById.set(r.id, { slug: r.slug, mpn: r.mpn, key: r.mpn_norm, aliasKeys: r.aliases_norm, group: r.category?.slug ?? '-' });
    paramById.set(r.id, {
      slug: r.slug,
      active: r.status === 'active',
      category: r.category ? { slug: r.category.slug, name: r.category.name } : null,
      package: r.package,
      specs: r.specs,
      sourceId: r.source_id,
      description: r.description,
      longDescription: r.long_description,
    });
  }
  const mpn = buildMpnSuite([...mpnById.values()], {
    suite: 'real-mpn',
    seed,
    counts: { exact: 100, lower: 60, punct: 60, variant: 0, prefix: 0, typo: 80, 'short-typo': 30 },
  });
  const param = buildParamSuite([...paramById.values()], { suite: 'real-param', queries: 60, seed });
  const count = buildCountSuite([...paramById.values()], { suite: 'real-count' });
  let nl: RelevanceQuery[] = [];
  if (files.kicad) {
    const symbols: KicadSymbol[] = [];
    for await (const { text } of (await openLines(files.kicad)).lines) {
      if (!text.trim()) continue;
      try {
        symbols.push(JSON.parse(text) as KicadSymbol);
      } catch {
        // a broken line is not a query
      }
    }
    nl = buildKicadSuite(symbols, [...paramById.values()], { suite: 'real-nl', queries: 100, seed });
  }
  const need = buildNeedSuite(readNeedRules(), [...paramById.values()]);
  return { mpn, param, count, nl, needTune: need.tune, needTest: need.test, parts: mpnById.size };
}
