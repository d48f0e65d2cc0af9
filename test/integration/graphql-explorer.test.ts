/**
 * The GraphQL explorer in a real browser: headless Chromium (Debian's package, driven by playwright-core)
 * loads GET /graphql from the real HTTP server with a `query` in its URL, the user pastes a key in the
 * Headers tab and runs the query, and the answer shows the part. Nothing comes from outside the service
 * (every request the page makes is to its own origin). The screenshot is kept as an artefact in
 * test-results/graphql-explorer.png. Skips with a message when Chromium is absent (.ci/run installs it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noteSkip, tempDir } from '../support/fixtures.ts';
import { startTestApi, type TestApi } from '../support/api.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const present = fs.existsSync(CHROMIUM);
if (!present) noteSkip('GraphQL explorer in a browser', `no Chromium at ${CHROMIUM} (apt-get install chromium)`);
const ARTIFACTS = path.resolve(import.meta.dirname, '..', '..', 'test-results');

describe.skipIf(!present)('GraphQL explorer in headless Chromium', () => {
  let api: TestApi;
  let browser: BrowserContext;
  let secret: string;
  const profile = tempDir('partsearch-chromium-');
  beforeAll(async () => {
    api = await startTestApi();
    secret = (await api.key({ capabilities: ['parts:read'] })).secret;
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
      viewport: { width: 1400, height: 900 },
    });
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    fs.rmSync(profile, { recursive: true, force: true });
  });

  it('loads from the service alone, takes a key in the Headers tab, runs the query of its URL and shows the part', async () => {
    const page = await browser.newPage();
    const foreign: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(api.url)) foreign.push(r.url());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      // Before the key is in, the schema's introspection is refused (401); the browser asks for /favicon.ico (404).
      if (m.type() === 'error' && !/status of (401|404)/.test(m.text())) problems.push(m.text());
    });
    page.on('response', (r) => {
      if (r.status() === 404 && !r.url().endsWith('/favicon.ico')) problems.push(`404 ${r.url()}`);
    });
    const query = '{ supSearchMpn(q: "LM358DR", limit: 1) { hits results { part { mpn manufacturer { name } } } } }';
    await page.goto(`${api.url}/graphql?query=${encodeURIComponent(query)}`);
    await page.locator('.graphiql-container').waitFor({ timeout: 30_000 });
    // The Headers tab (open at first): replace the template with the key, as a user pastes it.
    await page.getByRole('button', { name: 'Headers' }).click();
    await page.getByText('Bearer <API key or access token>').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(JSON.stringify({ Authorization: `Bearer ${secret}` }));
    await page.getByRole('button', { name: /Execute query/ }).click();
    const result = page.locator('.result-window');
    await expect.poll(async () => result.innerText(), { timeout: 30_000 }).toContain('LM358DR');
    const text = await result.innerText();
    expect(text).toContain('"hits"');
    expect(text).toContain('Texas Instruments');
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'graphql-explorer.png') });
    expect(fs.statSync(path.join(ARTIFACTS, 'graphql-explorer.png')).size).toBeGreaterThan(10_000);
    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
  }, 120_000);
});
