/**
 * What the first hour shows: the development key kept in the data dir (real SQLite account store), the
 * banner's curl lines (run through a real shell), ingest progress and the ingest summary's wording.
 */
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteAccountStore } from '../../src/accounts/sqlite/store.ts';
import { banner, clientBaseUrl, curlLine } from '../../src/cli/banner.ts';
import { loadConfig } from '../../src/config.ts';
import { ensureDevKey } from '../../src/cli/dev-key.ts';
import { summaryText } from '../../src/cli/ingest-summary.ts';
import { createProgress, duration, progressFigures } from '../../ingest/progress.ts';
import type { IngestSummary } from '../../ingest/pipeline.ts';
import { tempDir } from '../support/fixtures.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('the development key', () => {
  it('is created once on account "local", kept in <data dir>/dev-key for the owner only, and replaced when it stops working', async () => {
    const dataDir = tempDir('partsearch-devkey-');
    dirs.push(dataDir);
    const store = createSqliteAccountStore({ file: path.join(dataDir, 'accounts.db'), pepper: randomBytes(32) });
    try {
      const config = loadConfig({ PARTSEARCH_DATA_DIR: dataDir });
      const first = await ensureDevKey(store, config);
      expect(first).toMatchObject({ outcome: 'created', accountCreated: true, file: path.join(dataDir, 'dev-key') });
      expect(fs.readFileSync(first.file, 'utf8')).toBe(`${first.secret}\n`);
      expect(fs.statSync(first.file).mode & 0o777).toBe(0o600);
      const auth = await store.authenticate(first.secret);
      expect([auth?.account.name, auth?.account.subscription, auth?.key.capabilities]).toEqual(['local', true, ['parts:read', 'ai:run']]);

      expect(await ensureDevKey(store, config)).toEqual({ ...first, outcome: 'kept', accountCreated: false });

      await store.revokeKey(auth!.key.id);
      const second = await ensureDevKey(store, config);
      expect(second).toMatchObject({ outcome: 'replaced', accountCreated: false });
      expect(second.secret).not.toBe(first.secret);
      expect((await store.authenticate(second.secret))?.account.id).toBe(auth!.account.id);
      expect(fs.statSync(second.file).mode & 0o777).toBe(0o600);
      expect(fs.readdirSync(dataDir).filter((f) => !f.startsWith('accounts.db'))).toEqual(['dev-key']); // no temporary file left
    } finally {
      await store.close();
    }
  });
});

describe('the banner', () => {
  it('shows curl lines that a shell turns into the intended arguments, with the key or a $KEY to fill in', () => {
    const url = `${clientBaseUrl('0.0.0.0', 8080)}/v1/parts/agentic-search?search_query=10k+0603+1%25+resistor&limit=3`;
    expect(url.startsWith('http://127.0.0.1:8080/')).toBe(true);
    const argv = (line: string, env: Record<string, string> = {}) =>
      spawnSync('bash', ['-c', `set -- ${line.replace(/^curl /, '')}; printf '%s\\n' "$@"`], { encoding: 'utf8', env: { PATH: process.env.PATH!, ...env } })
        .stdout.trim()
        .split('\n');
    expect(argv(curlLine(url, 'psk_a-b_C'))).toEqual(['-s', url, '-H', 'Authorization: Bearer psk_a-b_C']);
    expect(argv(curlLine(url, null), { KEY: 'psk_mine' })).toEqual(['-s', url, '-H', 'Authorization: Bearer psk_mine']);
    expect(clientBaseUrl('::', 9000)).toBe('http://[::1]:9000');
  });

  it('gives the key and where it is kept, or how to get one', () => {
    const base = { baseUrl: 'http://127.0.0.1:8080', engine: 'SQLite', parts: 2500, search: 'hybrid', examples: { mpn: 'LM358', query: '3.3V LDO' } };
    const withKey = banner({ ...base, devKey: { secret: 'psk_x', file: '/srv/data/dev-key' } });
    expect(withKey).toContain('partsearch is ready on http://127.0.0.1:8080  (SQLite, 2,500 parts, search hybrid)');
    expect(withKey).toContain('Development API key (also in /srv/data/dev-key, readable by you only):\n\n    psk_x\n');
    expect(withKey).toContain("    curl -s 'http://127.0.0.1:8080/v1/parts/search?mpn=LM358' -H 'Authorization: Bearer psk_x'\n");
    const hint = banner({ ...base, devKey: null, keyHint: ['No account yet'] });
    expect(hint).toContain('No account yet\n');
    expect(hint).toContain('Try (with KEY set to one of your keys):');
    expect(hint).toContain(`-H "Authorization: Bearer $KEY"`);
  });
});

describe('ingest progress', () => {
  it('reports the share of bytes read, parts per second and the time left once it can be estimated', () => {
    expect(progressFigures({ read: 100, indexed: 90, rejected: 0, bytes: 10, totalBytes: 1000 }, 1)).toEqual({ fraction: 0.01, rate: 90, left: null });
    expect(progressFigures({ read: 4000, indexed: 3000, rejected: 0, bytes: 250, totalBytes: 1000 }, 10)).toEqual({ fraction: 0.25, rate: 300, left: 30 });
    expect(progressFigures({ read: 1, indexed: 1, rejected: 0, bytes: 0, totalBytes: 0 }, 10).fraction).toBeNull();
    expect([duration(42.4), duration(125), duration(3 * 3600 + 65)]).toEqual(['42 s', '2 min 05 s', '3 h 01 min']);

    let t = 0;
    const lines: string[] = [];
    const stream = { isTTY: false, write: (s: string) => lines.push(s) } as unknown as NodeJS.WriteStream;
    const p = createProgress({ stream, now: () => t });
    t = 5_000;
    p.update({ read: 1000, indexed: 900, rejected: 3, bytes: 1_500_000, totalBytes: 6_000_000 });
    t = 6_000; // within the interval: not shown
    p.update({ read: 1200, indexed: 1100, rejected: 3, bytes: 1_800_000, totalBytes: 6_000_000 });
    p.done();
    p.phase!('building the index');
    expect(lines).toEqual([
      'ingest: 25% (1.5 MB of 6.0 MB read), 1,000 records read, 900 indexed, 3 rejected; 180 parts/s; about 15 s left\n',
      'ingest: building the index\n',
    ]);
  });
});

describe('the ingest summary', () => {
  const summary: IngestSummary = {
    read: 2514,
    indexed: 2510,
    rejected: 1,
    duplicates: 1,
    failed: 0,
    unmatchedListMembers: 2,
    amended: 0,
    seconds: 4.2,
    partsPerSecond: 598.6,
    embedSeconds: 0,
    vectors: { embedded: 0, reused: 0, pending: 0 },
    streamSeconds: 3.1,
    finishSeconds: 1.1,
    embedded: false,
    version: 'v3',
    reportFile: path.join(process.cwd(), 'data', 'reports', 'ingest-x.jsonl'),
  };

  it('explains each count that is not zero and says where the report is', () => {
    expect(summaryText(summary)).toBe(
      [
        'ingest: version v3 is live: 2,510 parts indexed from 2,514 records read in 4.2 s (599 records/s; 3.1 s reading and writing, 1.1 s building the index and swapping)',
        '  rejected                      1  records not indexed: not JSON, not UTF-8, over 64 MiB, or failing the dump schema. Fix them in the dump',
        '  duplicates                    1  records with the manufacturer and MPN of an earlier record: the later one was indexed in its place',
        '  unmatched list members        2  approved-list members (manufacturer + MPN) that match no indexed part: left out of their list. Fix the lists file, or add the parts to the dump',
        '  embeddings: none (lexical-only: agentic search ranks by BM25 alone on this version)',
        'ingest: report, one JSON line per record counted above (kind, file, line, reason, the record): data/reports/ingest-x.jsonl',
        '',
      ].join('\n'),
    );
    const clean = { ...summary, rejected: 0, duplicates: 0, unmatchedListMembers: 0, embedded: true, embedSeconds: 21.3, reportFile: null };
    const text = summaryText({ ...clean, vectors: { embedded: 250, reused: 2260, pending: 0 } });
    expect(text).toContain('  every record was indexed as written: none rejected, duplicated, refused or amended\n');
    expect(text).toContain(
      '  embeddings: 250 parts embedded (21.3 s), 2,260 vectors reused from earlier ingests; agentic search is hybrid (BM25 and vectors)\n',
    );
    expect(text).not.toContain('report');
    expect(summaryText({ ...clean, vectors: { embedded: 0, reused: 10, pending: 2500 } })).toContain(
      '  embeddings: 10 vectors reused from earlier ingests, 2,500 parts to embed after the swap: agentic search stays lexical-only until they are\n',
    );
  });
});
