/**
 * Shared by the OpenSearch benches (opensearch-client.ts, cluster.ts): a catalogue loaded into an
 * engine under a prefix of the bench's own, MPNs to ask for, and the MPN search p50 of several
 * contenders measured in alternating rounds within one run (the machine is shared: only ratios taken
 * this way mean something).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runIngest } from '../ingest/pipeline.ts';
import { openLines } from '../ingest/read-lines.ts';
import type { SearchEngine } from '../src/engines/port.ts';
import { mpnSearch } from '../src/http/routes/parts-search.ts';
import type { AppServices } from '../src/http/services.ts';
import { median } from './load.ts';

export const CATALOG = path.resolve(import.meta.dirname, '..', '..', 'shared', 'data', 'catalog');

/** Loads `parts` (lexical-only) with the catalogue's manufacturers and categories into `engine`. */
export async function loadCatalogue(engine: SearchEngine, parts: string): Promise<{ parts: number; seconds: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'psbench-'));
  try {
    await engine.init();
    const s = await runIngest({
      engine,
      embedder: null,
      parts: [parts],
      manufacturersFile: path.join(CATALOG, 'manufacturers.json'),
      categoriesFile: path.join(CATALOG, 'categories.json'),
      reportFile: path.join(dir, 'report.jsonl'),
    });
    return { parts: s.indexed, seconds: s.seconds };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** `n` MPNs spread over the dump (every k-th record). */
export async function pickMpns(parts: string, n: number, every = 97): Promise<string[]> {
  const out: string[] = [];
  let i = 0;
  for await (const { text } of (await openLines(parts)).lines) {
    if (i++ % every !== 0) continue;
    const mpn = (JSON.parse(text) as { mpn?: unknown }).mpn;
    if (typeof mpn === 'string' && mpn) out.push(mpn);
    if (out.length >= n) break;
  }
  return out;
}

/** The MPN search the REST route and GraphQL's supSearchMpn run (candidates, then their records). */
export const mpnSearchOn = (engine: SearchEngine) => (mpn: string) => mpnSearch({ engine } as AppServices, mpn);

export interface Contender {
  name: string;
  search: (mpn: string) => Promise<unknown>;
}

export interface RoundsResult {
  rounds: number;
  calls_per_round: number;
  /** Median over the rounds of each contender's p50 (ms) and CPU of this process per search (ms). */
  p50_ms: Record<string, number>;
  cpu_ms_per_search: Record<string, number>;
  /** Median over the rounds of each contender's p50 over the first contender's p50 in the same round. */
  ratio_to_first: Record<string, number>;
  by_round: Record<string, number>[];
}

/**
 * `rounds` rounds; in each, every contender (in an order that rotates from round to round) runs
 * `calls` searches one after another, cycling through `mpns`. One warm-up pass over `mpns` first.
 */
export async function alternateRounds(contenders: Contender[], mpns: string[], rounds: number, calls: number): Promise<RoundsResult> {
  for (const c of contenders) for (const m of mpns) await c.search(m);
  const byRound: Record<string, number>[] = [];
  const p50s: Record<string, number[]> = {};
  const cpu: Record<string, number[]> = {};
  const ratios: Record<string, number[]> = {};
  let next = 0;
  for (let r = 0; r < rounds; r++) {
    const order = contenders.map((_, i) => contenders[(i + r) % contenders.length]!);
    const round: Record<string, number> = {};
    for (const c of order) {
      const lat: number[] = [];
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < calls; i++) {
        const t0 = performance.now();
        await c.search(mpns[next++ % mpns.length]!);
        lat.push(performance.now() - t0);
      }
      const used = process.cpuUsage(cpu0);
      round[c.name] = +median(lat).toFixed(3);
      (p50s[c.name] ??= []).push(median(lat));
      (cpu[c.name] ??= []).push((used.user + used.system) / 1000 / calls);
    }
    const first = round[contenders[0]!.name]!;
    for (const c of contenders) (ratios[c.name] ??= []).push(round[c.name]! / first);
    byRound.push(round);
  }
  const fix = (o: Record<string, number[]>, digits: number) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, +median(v).toFixed(digits)]));
  return { rounds, calls_per_round: calls, p50_ms: fix(p50s, 3), cpu_ms_per_search: fix(cpu, 3), ratio_to_first: fix(ratios, 3), by_round: byRound };
}

/** Deletes every index of `prefix` (`<prefix>-*`) through `url` (a node of the cluster). */
export async function dropPrefix(url: string, prefix: string): Promise<void> {
  await fetch(`${url}/${prefix}-*`, { method: 'DELETE' }).catch(() => undefined);
}
