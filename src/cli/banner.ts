/**
 * What `partsearch start` and `serve` print once the API listens: the URL, the development key and where
 * it is kept, and two curl lines that answer with parts of this index (an MPN search and an agentic
 * search), ready to paste. On stdout; the start-up steps before it and the logs go to stderr.
 */
import path from 'node:path';
import { normaliseMpn } from '../catalog/mpn.ts';
import type { SearchEngine } from '../engines/port.ts';

export interface Examples {
  mpn: string;
  query: string;
}

/** The sample catalogue's showcase: an MPN whose variants the search lists, and a query whose constraints it reads. */
const SAMPLE_EXAMPLES: Examples = { mpn: 'LM358', query: '3.3V LDO SOT-23-5' };

/** Queries that find parts in this index: the sample's showcase when it is there, else an active part's MPN and category. */
export async function exampleQueries(engine: SearchEngine): Promise<Examples | null> {
  const sample = await engine.mpnLookup({ key: normaliseMpn(SAMPLE_EXAMPLES.mpn), mode: 'prefix', limit: 1 });
  if (sample.length > 0) return SAMPLE_EXAMPLES;
  const { hits } = await engine.textSearch({ text: null, filters: { status: ['active'] }, limit: 1, offset: 0, exactTotal: false, records: true });
  const record = hits[0]?.record;
  if (!record) return null;
  return { mpn: record.mpn, query: record.category?.name ?? record.description.split(/\s+/).slice(0, 4).join(' ') };
}

/** The address a client on this machine uses: a wildcard bind is reached on loopback. */
export function clientBaseUrl(host: string, port: number): string {
  const h = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
  return `http://${h}:${port}`;
}

/** A path as the user would type it from the working directory: relative when under it. */
export function shownPath(p: string, cwd = process.cwd()): string {
  const rel = path.relative(cwd, p);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : p;
}

/** A shell word: single-quoted unless it is plain. */
function sh(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** One ready-to-paste curl command line. */
export function curlLine(url: string, key: string | null): string {
  const auth = key ? sh(`Authorization: Bearer ${key}`) : '"Authorization: Bearer $KEY"';
  return `curl -s ${sh(url)} -H ${auth}`;
}

export interface BannerInput {
  baseUrl: string;
  engine: string;
  parts: number;
  /** `hybrid`, `lexical-only`, or a sentence saying what search runs on and why. */
  search: string;
  devKey: { secret: string; file: string } | null;
  examples: Examples | null;
  /** Lines about keys when there is no development key (how to create one). */
  keyHint?: string[];
}

export function banner(b: BannerInput): string {
  const n = b.parts.toLocaleString('en-US');
  const lines = ['', `partsearch is ready on ${b.baseUrl}  (${b.engine}, ${n} parts, search ${b.search})`, ''];
  if (b.devKey) lines.push('Development API key (also in ' + shownPath(b.devKey.file) + ', readable by you only):', '', `    ${b.devKey.secret}`, '');
  else if (b.keyHint?.length) lines.push(...b.keyHint, '');
  if (b.examples) {
    const key = b.devKey?.secret ?? null;
    const q = new URLSearchParams({ search_query: b.examples.query, limit: '3' }).toString();
    lines.push(
      b.devKey ? 'Try:' : 'Try (with KEY set to one of your keys):',
      '',
      `    ${curlLine(`${b.baseUrl}/v1/parts/search?${new URLSearchParams({ mpn: b.examples.mpn })}`, key)}`,
      `    ${curlLine(`${b.baseUrl}/v1/parts/agentic-search?${q}`, key)}`,
      '',
    );
  }
  lines.push(`API description: ${b.baseUrl}/openapi.json    Stop: Ctrl-C`, '');
  return lines.join('\n');
}
