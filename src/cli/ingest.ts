/** `partsearch ingest`: a dump into a new index version, or --rollback to the previous one. */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, loadDotEnv } from '../config.ts';
import type { VectorCache } from '../embeddings/vector-cache.ts';
import type { AppServices } from '../service/app-services.ts';
import { duration } from '../../ingest/progress.ts';
import { UsageError, type Command } from './args.ts';
import { printSummary } from './ingest-summary.ts';

/**
 * `--embeddings background`: the version is live (lexical-only); its missing vectors are filled now,
 * with a progress line every 5 s. Ctrl-C stops between batches: what was embedded is kept, and a running
 * API server (or the next `ingest`) completes the rest.
 */
async function fillAfterSwap(s: AppServices, version: string, cache: VectorCache | null, signal: AbortSignal): Promise<number> {
  const n = (x: number) => x.toLocaleString('en-US');
  process.stderr.write(`ingest: ${version} is live (lexical-only search); embedding its missing vectors\n`);
  const { fillVectors } = await import('../embeddings/vector-fill.ts');
  const started = Date.now();
  let shown = started;
  const p = await fillVectors({
    engine: s.engine,
    embedder: s.embedder!,
    cache,
    version,
    signal,
    onProgress: (p) => {
      if (p.state !== 'embedding' || Date.now() - shown < 5000) return;
      shown = Date.now();
      const seconds = (shown - started) / 1000;
      const rate = p.done / seconds;
      const left = p.done > 0 ? `, about ${duration((p.total - p.done) / rate)} left` : '';
      process.stderr.write(`ingest: vectors ${n(p.done)} of ${n(p.total)} (${Math.floor((100 * p.done) / p.total)}%), ${n(Math.round(rate))} parts/s${left}\n`);
    },
  });
  if (p.state === 'complete') {
    process.stderr.write(`ingest: vectors complete (${n(p.embedded)} embedded, ${n(p.done - p.embedded)} reused): ${version} is searched hybrid\n`);
    return 0;
  }
  process.stderr.write(
    `ingest: vectors ${n(p.done)} of ${n(p.total)}, ${p.state} (${p.reason}); ${version} stays lexical-only until an API server or the next ingest completes them\n`,
  );
  return p.state === 'failed' ? 1 : 0;
}

export const ingestCommand: Command = {
  name: 'ingest',
  usage: `partsearch ingest --parts FILE [--parts FILE ...] [--manufacturers FILE] [--categories FILE] [--lists FILE]
                  [--report FILE] [--embeddings complete|background|none] [--batch-size N] [--json]
                  [--break-lock]
partsearch ingest --rollback
partsearch ingest --break-lock

Builds a new index version from the dump (the dump is the whole catalogue), checks its count and
makes it live atomically; the previous version is kept for --rollback. Vectors of parts whose
embedding text an earlier ingest embedded are reused (EMBEDDING_CACHE); --embeddings complete (the
default) embeds the others before the swap; background makes the version live first, searched
lexical-only, then embeds them and turns search hybrid (Ctrl-C leaves the rest to a running API
server, or to the next ingest); none indexes no vectors (--no-embeddings is the same). Records that fail validation,
duplicates and engine refusals are written to the report (default: <data dir>/reports/ingest-<time>.jsonl).
Ctrl-C stops the ingest before its swap, drops the new version and keeps the live one (exit status 130,
TERM 143); a version that an
ingest killed outright left behind is dropped by the next ingest, and two ingests never run at once
(SQLite: --break-lock gives up the claim of an ingest on another host that is gone).
Exit status: 0 when parts were indexed; 1 when nothing was indexed or a file cannot be read; 2 on usage errors.`,
  options: {
    parts: { type: 'string', multiple: true },
    manufacturers: { type: 'string' },
    categories: { type: 'string' },
    lists: { type: 'string' },
    report: { type: 'string' },
    'no-embeddings': { type: 'boolean' },
    embeddings: { type: 'string' },
    'batch-size': { type: 'string' },
    rollback: { type: 'boolean' },
    'break-lock': { type: 'boolean' },
    json: { type: 'boolean' },
  },
  async run(v) {
    loadDotEnv();
    const config = loadConfig();
    const { closeServices, createServices, createVectorCache } = await import('../composition.ts');
    if (v['break-lock']) {
      // The claim of an ingest that ran on another host (or in a container since replaced) and is gone.
      const file = path.join(config.dataDir, 'partsearch.db');
      if (config.engine !== 'sqlite' || !fs.existsSync(file)) throw new UsageError('--break-lock applies to the SQLite database of the data dir');
      const { default: Database } = await import('better-sqlite3');
      const { breakLoadClaim } = await import('../engines/sqlite/load-lock.ts');
      const db = new Database(file);
      try {
        const c = breakLoadClaim(db);
        process.stderr.write(
          c ? `ingest: gave up the claim of process ${c.pid} on ${c.host} (since ${c.started_at})\n` : 'ingest: no ingest claims this database\n',
        );
      } finally {
        db.close();
      }
      if (!(v.parts as string[] | undefined)?.length) return 0;
    }
    if (v.rollback) {
      const s = await createServices(config, { embedder: false });
      try {
        const r = await s.engine.rollback();
        process.stderr.write(`ingest: rolled back from ${r.from} to ${r.to}\n`);
        return 0;
      } finally {
        await closeServices(s);
      }
    }
    const parts = (v.parts as string[] | undefined) ?? [];
    if (parts.length === 0) throw new UsageError('--parts FILE is required (or --rollback)');
    const batchSize = v['batch-size'] ? Number(v['batch-size']) : undefined;
    if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize > 0)) throw new UsageError('--batch-size must be a positive whole number');
    const mode = v['no-embeddings'] ? 'none' : ((v.embeddings as string | undefined) ?? 'complete');
    if (mode !== 'complete' && mode !== 'background' && mode !== 'none')
      throw new UsageError(`--embeddings must be complete, background or none, got "${mode}"`);
    const { IngestInterrupted, runIngest } = await import('../../ingest/pipeline.ts');
    const { createProgress } = await import('../../ingest/progress.ts');
    const s = await createServices(config, { embedder: mode !== 'none', bulkEmbedding: true });
    const vectorCache = s.embedder ? await createVectorCache(config) : null;
    // Ctrl-C (or a TERM) stops between records and drops the new version; a second one ends the process.
    const interrupt = new AbortController();
    let exitStatus = 130;
    const onSignal = (signal: NodeJS.Signals) => {
      exitStatus = signal === 'SIGTERM' ? 143 : 130;
      interrupt.abort();
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const reportFile = (v.report as string | undefined) ?? path.join(config.dataDir, 'reports', `ingest-${stamp}.jsonl`);
    try {
      if (mode !== 'none') process.stderr.write(`ingest: ${s.embedderMessage}\n`);
      const summary = await runIngest({
        engine: s.engine,
        embedder: s.embedder,
        vectorCache,
        embeddings: mode === 'background' ? 'background' : 'complete',
        parts: parts.map((p) => path.resolve(p)),
        manufacturersFile: v.manufacturers as string | undefined,
        categoriesFile: v.categories as string | undefined,
        listsFile: v.lists as string | undefined,
        reportFile,
        batchSize,
        progress: createProgress(),
        signal: interrupt.signal,
      });
      // An interrupt during the final index build and swap is not acted on: the new version went live.
      if (interrupt.signal.aborted) process.stderr.write('ingest: interrupted while finishing; the new version went live\n');
      printSummary(summary);
      if (v.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
      if (summary.vectors.pending > 0 && s.embedder && !interrupt.signal.aborted) return await fillAfterSwap(s, summary.version, vectorCache, interrupt.signal);
      return 0;
    } catch (e) {
      // What was rejected before the failure is in the report: say where.
      const written = fs.statSync(reportFile, { throwIfNoEntry: false });
      if (written?.isFile() && written.size > 0) process.stderr.write(`ingest: report of records not indexed as written: ${reportFile}\n`);
      if (e instanceof IngestInterrupted) {
        process.stderr.write(`ingest: ${e.message}\n`);
        return exitStatus;
      }
      throw e;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await vectorCache?.close();
      await closeServices(s);
    }
  },
};
