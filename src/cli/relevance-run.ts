/** The work of `partsearch relevance` (relevance.ts holds the command): suites against an index, report diffs, misses. */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, loadDotEnv, type Config } from '../config.ts';
import { createEngine } from '../composition.ts';
import { loadEmbedder } from '../embeddings/index.ts';
import type { Embedder } from '../embeddings/port.ts';
import type { SearchEngine } from '../engines/port.ts';
import { readSuite, RETRIEVALS } from '../relevance/format.ts';
import { METRIC_LABELS, METRIC_NAMES, type Metrics } from '../relevance/metrics.ts';
import { runSuite, type RelevanceReport, type SuiteResult } from '../relevance/runner.ts';
import { buildSampleIndex } from '../relevance/sample-index.ts';
import { findMisses, formatMisses } from '../relevance/misses.ts';
import type { Retrieval } from '../search/agentic.ts';
import { DEFAULT_FUSION, FUSIONS, type Fusion } from '../search/fusion.ts';
import { UsageError } from './args.ts';
import { DEFAULT_SUITES } from './relevance.ts';
import { PROJECT_ROOT } from '../util/project.ts';

/** Where suite NAMEs live: test/relevance/NAME.jsonl of this checkout. */
export const SUITES_DIR = path.join(PROJECT_ROOT, 'test', 'relevance');

export function resolveSuite(arg: string): string {
  if (fs.existsSync(arg) && fs.statSync(arg).isFile()) return path.resolve(arg);
  const named = path.join(SUITES_DIR, `${arg.replace(/\.jsonl$/, '')}.jsonl`);
  if (fs.existsSync(named)) return named;
  throw new UsageError(`no suite "${arg}" (neither a file nor ${named})`);
}

const f3 = (x: number) => x.toFixed(3);

export function formatSuiteTable(s: SuiteResult): string {
  const rows: [string, number, Metrics][] = [[`${s.suite} (mean)`, s.queries, s.mean]];
  for (const [k, m] of Object.entries(s.byKind)) if (Object.keys(s.byKind).length > 1) rows.push([`  ${k}`, m.queries, m]);
  const w = Math.max(10, ...rows.map((r) => r[0].length));
  const head = `${'suite / kind'.padEnd(w)}  ${'n'.padStart(4)}  ${METRIC_NAMES.map((k) => METRIC_LABELS[k].padStart(7)).join('  ')}`;
  const modes = Object.entries(s.retrieval)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return [
    head,
    ...rows.map(([name, n, m]) => `${name.padEnd(w)}  ${String(n).padStart(4)}  ${METRIC_NAMES.map((k) => f3(m[k]).padStart(7)).join('  ')}`),
    ...(modes ? [`retrieval that ran (agentic queries): ${modes}`] : []),
    ...(s.constraints ? [formatConstraintLine(s.constraints)] : []),
  ].join('\n');
}

/** "top 5 satisfy every parsed constraint: 40/42 = 0.952 (parametric 25/26, nl 12/13, ...)". */
export function formatConstraintLine(c: NonNullable<SuiteResult['constraints']>): string {
  const frac = (x: { satisfied: number; queries: number }) => `${x.satisfied}/${x.queries}`;
  const kinds = Object.entries(c.byKind).filter(([, k]) => k.queries > 0);
  const extra = [
    ...(kinds.length > 1 ? kinds.map(([k, x]) => `${k} ${frac(x)}`) : []),
    ...(c.unconstrained ? [`${c.unconstrained} without parsed constraints`] : []),
    ...(c.unsatisfiable ? [`${c.unsatisfiable} with no satisfying part`] : []),
  ];
  return `top 5 satisfy every parsed constraint: ${frac(c)} = ${c.share === null ? 'n/a' : f3(c.share)}${extra.length ? ` (${extra.join(', ')})` : ''}`;
}

/** report.json -> report.<mode>.json when one run writes several modes. */
function outFor(out: string, mode: string, several: boolean): string {
  if (!several) return out;
  const ext = path.extname(out) || '.json';
  return `${out.slice(0, out.length - path.extname(out).length)}.${mode}${ext}`;
}

/** The index a relevance command runs against: the configured live one, or a temporary sample index. */
async function openIndex(
  config: Config,
  engineKind: 'sqlite' | 'opensearch',
  useConfigured: boolean,
  embedder: Embedder | null,
): Promise<{ engine: SearchEngine; drop: () => Promise<void>; parts: number }> {
  if (useConfigured) {
    const engine = await createEngine(engineKind === config.engine ? config : { ...config, engine: engineKind });
    const parts = (await engine.info()).parts;
    process.stderr.write(`relevance: configured ${engineKind} index, ${parts.toLocaleString('en-US')} parts\n`);
    return { engine, drop: () => engine.close(), parts };
  }
  if (engineKind === 'opensearch' && !config.opensearchUrl) throw new UsageError('--engine opensearch needs OPENSEARCH_URL');
  process.stderr.write(`relevance: building a temporary ${engineKind} index of the sample catalogue${embedder ? ' with embeddings' : ' (lexical-only)'}...\n`);
  const idx = await buildSampleIndex({ engine: engineKind, opensearchUrl: config.opensearchUrl, embedder });
  process.stderr.write(`relevance: ${idx.parts} parts indexed in ${idx.seconds.toFixed(1)} s\n`);
  return { engine: idx.engine, drop: idx.drop, parts: idx.parts };
}

function engineKindOf(v: Record<string, unknown>, config: Config): 'sqlite' | 'opensearch' {
  const kind = (v.engine as string | undefined) ?? config.engine;
  if (kind !== 'sqlite' && kind !== 'opensearch') throw new UsageError('--engine must be sqlite or opensearch');
  return kind;
}

/** `relevance misses`: the parsed constraints each suite's grade-3 parts fail (src/relevance/misses.ts). */
export async function misses(v: Record<string, unknown>): Promise<number> {
  loadDotEnv();
  const config: Config = loadConfig();
  const queries = ((v.suite as string[] | undefined)?.length ? (v.suite as string[]) : DEFAULT_SUITES).map(resolveSuite).flatMap((file) => readSuite(file));
  const { engine, drop } = await openIndex(config, engineKindOf(v, config), Boolean(v['use-configured']), null);
  try {
    const r = await findMisses(queries, async (slug) => {
      const at = slug.indexOf('/');
      return at < 0 ? null : ((await engine.getPartBySlug(slug.slice(0, at), slug.slice(at + 1)))?.part ?? null);
    });
    process.stdout.write(`${formatMisses(r)}\n`);
    return 0;
  } finally {
    await drop();
  }
}

export async function run(v: Record<string, unknown>): Promise<number> {
  loadDotEnv();
  const config: Config = loadConfig();
  const engineKind = engineKindOf(v, config);
  const modes = ((v.retrieval as string[] | undefined) ?? [])
    .flatMap((m) => m.split(','))
    .map((m) => m.trim())
    .filter(Boolean);
  for (const m of modes) if (!(RETRIEVALS as readonly string[]).includes(m)) throw new UsageError(`--retrieval must be ${RETRIEVALS.join(', ')}`);
  const runs: (Retrieval | null)[] = modes.length ? [...new Set(modes as Retrieval[])] : [null];
  const fusionArgs = ((v.fusion as string[] | undefined) ?? [])
    .flatMap((m) => m.split(','))
    .map((m) => m.trim())
    .filter(Boolean);
  for (const f of fusionArgs) if (!(FUSIONS as readonly string[]).includes(f)) throw new UsageError(`--fusion must be ${FUSIONS.join(', ')}`);
  const fusions: Fusion[] = fusionArgs.length ? [...new Set(fusionArgs as Fusion[])] : [DEFAULT_FUSION];
  const suiteFiles = ((v.suite as string[] | undefined)?.length ? (v.suite as string[]) : DEFAULT_SUITES).map(resolveSuite);
  const suites = suiteFiles.map((file) => ({ file, queries: readSuite(file) }));
  const out = path.resolve((v.out as string | undefined) ?? 'relevance-report.json');
  const useConfigured = Boolean(v['use-configured']);
  const wantsVectors = !v['no-embeddings'] && !(runs.length === 1 && runs[0] === 'lexical');

  let embedder: Embedder | null = null;
  if (wantsVectors) {
    const status = await loadEmbedder(config);
    embedder = status.embedder;
    process.stderr.write(`relevance: ${status.message}\n`);
  }
  let engine: SearchEngine;
  let drop: () => Promise<void>;
  let parts: number;
  try {
    ({ engine, drop, parts } = await openIndex(config, engineKind, useConfigured, embedder));
  } catch (e) {
    await embedder?.close();
    throw e;
  }

  try {
    const info = await engine.info();
    const meta = await engine.meta();
    for (const mode of runs)
      for (const fusion of fusions) {
        const report: RelevanceReport = {
          created_at: new Date().toISOString(),
          engine: engineKind,
          retrieval: mode,
          fusion,
          embeddings: { model: embedder && info.vectors ? (meta?.embedding.model ?? embedder.model) : null, vectors: info.vectors && embedder !== null },
          index: useConfigured ? 'configured' : 'sample',
          parts,
          suites: [],
        };
        process.stdout.write(
          `\n== ${engineKind}, retrieval ${mode ?? 'per fixture (default hybrid)'}, fusion ${fusion}, embeddings ${report.embeddings.vectors ? report.embeddings.model : 'off'}\n`,
        );
        for (const s of suites) {
          const r = await runSuite(
            s.queries,
            { engine, embedder, vectors: info.vectors, retrieval: mode ?? undefined, fusion },
            path.relative(process.cwd(), s.file),
          );
          report.suites.push(r);
          process.stdout.write(`${formatSuiteTable(r)}\n\n`);
        }
        const suffix = [...(runs.length > 1 ? [mode ?? 'default'] : []), ...(fusions.length > 1 ? [fusion] : [])].join('.');
        const file = outFor(out, suffix, suffix !== '');
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
        process.stderr.write(`relevance: report written to ${file}\n`);
      }
    return 0;
  } finally {
    await drop();
    await embedder?.close();
  }
}
