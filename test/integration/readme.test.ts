/**
 * README.md is executable: every block marked `<!-- readme-test: ID -->` runs here as a reader runs it,
 * in one bash session in a checkout-like folder (this checkout's files linked in, so `data/` and `dump/`
 * are the test's own), against one `npm start` that serves every walk-through, and each block's output
 * is checked for its shape (never exact bytes). A marked block without a check here, or a check
 * whose block is gone, fails the test: the README and the code cannot drift apart unnoticed.
 *
 * What differs from a reader's machine, and only this: the port (8080 in the README) is the test's own,
 * the search is lexical-only (EMBEDDING_MODEL_DIR=none: no model download, quick ingests), `npm install`
 * is skipped (this checkout is installed; README_TEST_FRESH_CLONE=1 runs the quick start in a fresh
 * clone instead, `npm install` included), and the OpenSearch walk-through uses the OpenSearch and Redis
 * that OPENSEARCH_URL and REDIS_URL name (under a prefix of its own, removed afterwards) instead of
 * starting them: it is skipped when they are not set.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeRedisPrefix } from '../../src/redis/connection.ts';
import { noteSkip, tempDir } from '../support/fixtures.ts';
import { cleanEnv, ROOT } from '../support/npm-start.ts';
import { jsonValues, readmeBlocks, ShellSession, type ReadmeBlock } from '../support/readme.ts';

const PORT = 18220;
const OPENSEARCH_URL = process.env.OPENSEARCH_URL;
const REDIS_URL = process.env.REDIS_URL;
const tag = `pstest-firsthour-readme-${randomBytes(3).toString('hex')}`;
const freshClone = process.env.README_TEST_FRESH_CLONE === '1';

type Json = Record<string, unknown> & { results?: Json[] };
const json = (output: string) => jsonValues(output) as Json[];

/** What each block must print. `blocks` gives access to what earlier blocks printed. */
interface Check {
  /** A server block: the text that says it is ready (in its log). */
  ready?: RegExp;
  check(output: string): void;
}

const CHECKS: Record<string, Check> = {
  'quick-start': {
    ready: /Stop: Ctrl-C/,
    check(log) {
      expect(log).toMatch(/the store is empty: loading the generated sample catalogue/);
      expect(log).toMatch(/ingest: version v\d+ is live: 2,500 parts indexed/);
      expect(log).toMatch(new RegExp(`partsearch is ready on http://127\\.0\\.0\\.1:${PORT} `));
      expect(log).toMatch(/Development API key \(also in data\/dev-key, readable by you only\):\n\n {4}psk_[\w-]{43}\n/);
      expect(log.match(/^ {4}curl -s .*Authorization: Bearer psk_/gm)).toHaveLength(2);
    },
  },
  'quick-start-try': {
    check(output) {
      const [health, diagnostics, mpn, agentic] = json(output);
      expect(health).toMatchObject({ status: 'ok', version: expect.any(String) });
      expect(diagnostics).toMatchObject({ engine: { kind: 'sqlite', parts: 2500 } });
      expect(mpn!.results!.length).toBeGreaterThan(0);
      expect(mpn!.results!.every((p) => String(p.mpn).startsWith('LM358'))).toBe(true);
      expect(agentic!.hits).toBeGreaterThan(0);
    },
  },
  ingest: {
    check(output) {
      expect(output).toMatch(/"partsFile": ".*dump\/parts\.jsonl"/);
      expect(output).toMatch(/ingest: version v\d+ is live: 2,500 parts indexed from 2,500 records read/);
      expect(output).toMatch(/ingest: rolled back from v\d+ to v\d+/);
    },
  },
  keys: {
    check(output) {
      const [account, key, list] = json(output) as [Json, Json, Json[]];
      expect(account).toMatchObject({ name: 'acme', subscription: true, key: { key: expect.stringMatching(/^psk_/) } });
      expect(key).toMatchObject({ name: 'ci', capabilities: ['parts:read'], key: expect.stringMatching(/^psk_/) });
      expect(list.map((k) => k.name).sort()).toEqual(['ci', 'default']);
    },
  },
  'deep-dive': {
    check(output) {
      expect(output).toMatch(/^event: status\ndata: \{"status":"running"\}/m);
      expect(output).toMatch(/^event: result\ndata: \{"answers":/m);
      const job = json(output).at(-1)!;
      expect(job).toMatchObject({ type: 'deep_dive', status: 'completed', result: { answers: expect.any(Array) } });
    },
  },
  discover: {
    check(output) {
      expect(output).toMatch(/^event: pick\n/m);
      expect(output).toMatch(/^event: result\ndata: \{"summary":/m);
    },
  },
  graphql: {
    check(output) {
      const [body] = json(output);
      expect(body!.errors, output).toBeUndefined();
      expect(body!.data).toBeTruthy();
    },
  },
  'opensearch-setup': {
    check(output) {
      expect(output).toMatch(/readme-test: skipped scripts\/opensearch.sh start/);
      expect(output).toMatch(/ingest: version \S+ is live: 2,500 parts indexed/);
    },
  },
  opensearch: {
    ready: /Stop: Ctrl-C/,
    check(log) {
      expect(log).toMatch(/search engine OpenSearch at .*accounts and jobs in Redis/);
      expect(log).toMatch(/the key in data\/dev-key no longer authenticates .*created a new development key there/);
      expect(log).toMatch(/partsearch is ready on .*\(OpenSearch, 2,500 parts/);
    },
  },
  'opensearch-try': {
    check(output) {
      const [diagnostics, mpn] = json(output);
      expect(diagnostics).toMatchObject({ engine: { kind: 'opensearch', parts: 2500 } });
      expect(mpn!.results!.length).toBeGreaterThan(0);
    },
  },
};

/** The order a reader would follow: one server for the quick start and the walk-throughs on it, then OpenSearch. */
const ORDER = ['quick-start', 'quick-start-try', 'ingest', 'keys', 'deep-dive', 'discover', 'graphql', 'opensearch-setup', 'opensearch', 'opensearch-try'];
const OPENSEARCH_BLOCKS = new Set(['opensearch-setup', 'opensearch', 'opensearch-try']);

const blocks = readmeBlocks(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
const byId = new Map(blocks.map((b) => [b.id, b]));

/** The block as run here: the README's addresses replaced by the test's. */
function localise(b: ReadmeBlock): string {
  let text = b.text.replace(/(localhost|127\.0\.0\.1):8080/g, `$1:${PORT}`);
  if (OPENSEARCH_URL) text = text.replaceAll('http://127.0.0.1:9200', OPENSEARCH_URL);
  if (REDIS_URL) text = text.replaceAll('redis://127.0.0.1:6379', REDIS_URL);
  return text;
}

/** A folder that looks like a checkout of this one (its files linked in), so that data/ and dump/ are the test's. */
function checkoutLike(): string {
  const dir = tempDir('partsearch-readme-');
  if (freshClone) {
    execFileSync('git', ['clone', '--quiet', '--no-hardlinks', ROOT, dir]);
    return dir;
  }
  for (const name of fs.readdirSync(ROOT)) {
    if (['data', 'dump', '.git', '.env'].includes(name) || name.startsWith('dist.')) continue;
    fs.symlinkSync(path.join(ROOT, name), path.join(dir, name));
  }
  return dir;
}

const SHIMS = `
npm() {
  if [ "$1" = install ] && [ -z "$README_TEST_FRESH_CLONE" ]; then echo "readme-test: skipped npm install (this checkout is installed)"; return 0; fi
  command npm "$@"
}
scripts/opensearch.sh() { echo "readme-test: skipped scripts/opensearch.sh $* (the test's OpenSearch runs already)"; }
redis-server() { echo "readme-test: skipped redis-server (the test's Redis runs already)"; }
`;

describe('README.md', () => {
  it('marks only blocks this test checks, and this test checks only blocks the README has', () => {
    expect(blocks.map((b) => b.id).sort()).toEqual(Object.keys(CHECKS).sort());
    expect([...ORDER].sort()).toEqual(Object.keys(CHECKS).sort());
    for (const b of blocks) expect(Boolean(CHECKS[b.id]!.ready), `README.md:${b.line} ${b.id}: server or not`).toBe(b.server);
  });

  let dir = '';
  let logs = '';
  let session: ShellSession;
  beforeAll(() => {
    dir = checkoutLike();
    const env = cleanEnv({
      EMBEDDING_MODEL_DIR: 'none',
      PORT: String(PORT),
      LOG_LEVEL: 'warn',
      OPENSEARCH_INDEX_PREFIX: tag,
      REDIS_KEY_PREFIX: `${tag}:`,
      ...(freshClone ? { README_TEST_FRESH_CLONE: '1' } : {}),
    });
    logs = tempDir('partsearch-readme-logs-');
    session = new ShellSession(dir, env, SHIMS, logs);
  });

  afterAll(async () => {
    // Servers still running get the reader's Ctrl-C, then whatever is left is killed.
    for (const id of [...(session?.servers.keys() ?? [])]) await session.stopServer(id).catch(() => undefined);
    session?.close();
    try {
      if (OPENSEARCH_URL) {
        const indices = (await (await fetch(`${OPENSEARCH_URL}/_cat/indices/${tag}*?format=json`)).json()) as { index: string }[];
        for (const { index } of indices) await fetch(`${OPENSEARCH_URL}/${index}`, { method: 'DELETE' });
      }
      if (REDIS_URL) await purgeRedisPrefix(REDIS_URL, `${tag}:`);
    } finally {
      for (const d of [dir, logs]) if (d) fs.rmSync(d, { recursive: true, force: true });
    }
  });

  for (const id of ORDER) {
    const opensearch = OPENSEARCH_BLOCKS.has(id);
    it.skipIf(opensearch && !(OPENSEARCH_URL && REDIS_URL))(`runs "${id}" as written`, async () => {
      const b = byId.get(id)!;
      const c = CHECKS[id]!;
      if (id === 'opensearch') {
        // The quick start's server is stopped as a reader stops it (Ctrl-C) before this one takes the port.
        const log = await session.stopServer('quick-start');
        expect(log).toMatch(/SIGINT received: finishing requests in progress/);
        expect(log).toMatch(/partsearch: stopped/);
      }
      if (b.server) {
        c.check(await session.startServer(id, localise(b), c.ready!));
        return;
      }
      const r = await session.run(localise(b));
      expect(r.failed, `README.md:${b.line} ${id}:\n${r.output}`).toEqual([]);
      c.check(r.output);
    });
  }

  if (!(OPENSEARCH_URL && REDIS_URL)) noteSkip('README OpenSearch walk-through', 'OPENSEARCH_URL and REDIS_URL are not both set');
});
