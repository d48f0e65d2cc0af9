/**
 * `npm start` as a newcomer runs it, as real processes (npm, the node it execs, curl): the start-up
 * says what it does, the banner's key and curl lines work, and a signal stops it cleanly wherever it is
 * sent: SIGINT to npm during the sample ingest (nothing half-loaded stays), SIGTERM to npm while
 * serving (an open job stream is closed, the queued request counts reach the disk), SIGINT to the node
 * process (the key of the first start is shown again). Lexical-only, on a temporary data dir.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/fixtures.ts';
import { alive, npmRun, type Started } from '../support/npm-start.ts';

const dataDir = tempDir('partsearch-start-');
const port = 18210;
const base = `http://127.0.0.1:${port}`;
const env = { PARTSEARCH_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', EMBEDDING_MODEL_DIR: 'none', JOB_WORKERS: '0', LOG_LEVEL: 'warn' };
const running: Started[] = [];
afterAll(async () => {
  for (const r of running) if (r.proc.exitCode === null && r.proc.signalCode === null) r.proc.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function start(): Started {
  const s = npmRun('start', env);
  running.push(s);
  return s;
}

/** An HTTP request left open; resolves when the server ends its connection. */
function openStream(url: string, key: string): Promise<string> {
  return new Promise((resolve) => {
    const req = http.get(url, { headers: { Authorization: `Bearer ${key}` } }, (res) => {
      res.resume();
      res.on('close', () => resolve(`response closed (${res.statusCode})`));
    });
    req.on('error', (e) => resolve(`connection ended (${(e as NodeJS.ErrnoException).code})`));
  });
}

function requestCount(): number {
  const db = new Database(path.join(dataDir, 'accounts.db'), { readonly: true });
  try {
    return (db.prepare('SELECT COALESCE(SUM(count), 0) AS n FROM request_counts').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('npm start', () => {
  it('stops at SIGINT to npm during the sample ingest, leaving no half-loaded version', async () => {
    const s = start();
    await s.waitFor(/loading the generated sample catalogue/);
    s.proc.kill('SIGINT');
    expect(await s.exited).toBe(130);
    expect(s.stderr()).toMatch(/SIGINT received/);
    expect(s.stderr()).toMatch(/sample catalogue not loaded: interrupted .*the new version was dropped/);
    expect(s.stdout()).not.toContain('is ready');
  });

  let key = '';
  it('loads the sample, prints a banner whose key and curl lines work, and stops cleanly at SIGTERM to npm', async () => {
    const s = start();
    await s.waitFor(/Stop: Ctrl-C/);
    const err = s.stderr();
    expect(err).toMatch(/the store is empty: loading the generated sample catalogue \(2,500 parts/);
    expect(err).toMatch(/ingest: version v\d+ is live: 2,500 parts indexed from 2,500 records read/);
    expect(err).toMatch(/created a development API key, saved in .*dev-key \(mode 600/);
    key = fs.readFileSync(path.join(dataDir, 'dev-key'), 'utf8').trim();
    expect(s.stdout()).toContain(`partsearch is ready on ${base}  (SQLite, 2,500 parts, search lexical-only)`);
    expect(s.stdout()).toContain(`\n    ${key}\n`);

    // The two curl lines, pasted into a shell as they are.
    const curls = s.stdout().match(/^ {4}curl .*$/gm)!;
    expect(curls).toHaveLength(2);
    for (const line of curls) {
      const r = spawnSync('bash', ['-c', line], { encoding: 'utf8' });
      const body = JSON.parse(r.stdout) as { hits: number; results: { mpn: string }[] };
      expect(body.hits, line).toBeGreaterThan(0);
    }

    // A deep dive queued (no workers) and its stream left open, then SIGTERM to npm.
    const job = await fetch(`${base}/v1/parts/texas-instruments/LM358DR/deep-dive`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ deliverables: [{ question: 'Supply voltage range' }] }),
    });
    expect(job.status).toBe(202);
    const { job_id } = (await job.json()) as { job_id: string };
    const stream = openStream(`${base}/v1/jobs/${job_id}/stream`, key);
    await new Promise((r) => setTimeout(r, 300));
    const node = s.nodePid();
    const t = Date.now();
    s.proc.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    expect(await stream).toMatch(/closed|ended/);
    expect(Date.now() - t).toBeLessThan(15_000);
    expect(alive(node)).toBe(false);
    expect(s.stderr()).toMatch(/SIGTERM received: finishing requests in progress/);
    expect(s.stderr()).toMatch(/partsearch: stopped/);
    await expect(fetch(`${base}/health`)).rejects.toThrow();
    // The two curl lines, the job and its stream: counted in memory, written at the stop.
    expect(requestCount()).toBe(4);
  });

  it('shows the same key at the next start, and stops cleanly at SIGINT to the node process', async () => {
    const s = start();
    await s.waitFor(/Stop: Ctrl-C/);
    expect(s.stderr()).not.toMatch(/loading the generated sample|created a development API key/);
    expect(s.stdout()).toContain(`\n    ${key}\n`);
    expect((await fetch(`${base}/v1/diagnostics`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200);
    process.kill(s.nodePid(), 'SIGINT');
    expect(await s.exited).toBe(0);
    expect(s.stderr()).toMatch(/SIGINT received/);
    expect(requestCount()).toBe(5);
  });
});
