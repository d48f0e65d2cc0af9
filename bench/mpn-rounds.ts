/**
 * Shared by the OpenSearch benches (opensearch-client.ts, cluster.ts): a catalogue loaded into an
 * engine under a prefix of the bench's own, MPNs to ask for, and the MPN search p50 of several
 * contenders measured call by call in turn within one run (the machine is shared: only ratios taken
 * this way mean something).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runIngest } from '../ingest/pipeline.ts';
import { openLines } from '../ingest/read-lines.ts';
import type { SearchEngine } from '../src/engines/port.ts';
import { mpnSearch } from '../src/service/mpn-search.ts';
import type { AppServices } from '../src/service/app-services.ts';
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
 * `rounds` rounds of `calls` MPNs (cycling through `mpns`); each MPN is searched by every contender
 * one right after the other (the first to go rotating), so that all see the host in the same state:
 * on this shared machine its speed moves within seconds. A contender's p50 in a round is over its
 * `calls` searches; CPU is this process's, per search. One warm-up pass over `mpns` first.
 */
export async function alternateRounds(contenders: Contender[], mpns: string[], rounds: number, calls: number): Promise<RoundsResult> {
  for (const c of contenders) for (const m of mpns) await c.search(m);
  const byRound: Record<string, number>[] = [];
  const p50s: Record<string, number[]> = {};
  const cpu: Record<string, number[]> = {};
  const ratios: Record<string, number[]> = {};
  let next = 0;
  for (let r = 0; r < rounds; r++) {
    const lat = contenders.map(() => [] as number[]);
    const cpuMs = contenders.map(() => 0);
    for (let i = 0; i < calls; i++) {
      const mpn = mpns[next++ % mpns.length]!;
      for (let k = 0; k < contenders.length; k++) {
        const j = (k + i) % contenders.length;
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        await contenders[j]!.search(mpn);
        lat[j]!.push(performance.now() - t0);
        const used = process.cpuUsage(cpu0);
        cpuMs[j]! += (used.user + used.system) / 1000;
      }
    }
    const round: Record<string, number> = {};
    contenders.forEach((c, j) => {
      round[c.name] = +median(lat[j]!).toFixed(3);
      (p50s[c.name] ??= []).push(median(lat[j]!));
      (cpu[c.name] ??= []).push(cpuMs[j]! / calls);
    });
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
