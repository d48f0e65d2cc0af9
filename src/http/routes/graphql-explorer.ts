/**
 * The interactive explorer: GraphiQL (npm `graphiql`, its self-contained build, with React 18's) served
 * by this service, no CDN. GET /graphql from a browser (Accept: text/html) is its page; its scripts and
 * styles are GET /graphql/assets/<name>, read once from node_modules. The page runs no inline script
 * (Content-Security-Policy: scripts from this origin only): explorer.js (graphql-explorer-client.js) starts GraphiQL against
 * /graphql, with an Authorization header to fill in (kept in the browser's storage) and the `query`
 * of the page's URL, if any, in the editor.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const packageDir = (name: string) => path.dirname(require.resolve(`${name}/package.json`));

interface Asset {
  file: string;
  type: string;
}

/** The files the page loads, by the name it asks for. */
const ASSETS: Readonly<Record<string, () => Asset>> = {
  'graphiql.min.css': () => ({ file: path.join(packageDir('graphiql'), 'graphiql.min.css'), type: 'text/css; charset=utf-8' }),
  'graphiql.min.js': () => ({ file: path.join(packageDir('graphiql'), 'graphiql.min.js'), type: 'text/javascript; charset=utf-8' }),
  'react.production.min.js': () => ({ file: path.join(packageDir('react'), 'umd', 'react.production.min.js'), type: 'text/javascript; charset=utf-8' }),
  'react-dom.production.min.js': () => ({
    file: path.join(packageDir('react-dom'), 'umd', 'react-dom.production.min.js'),
    type: 'text/javascript; charset=utf-8',
  }),
  'explorer.js': () => ({ file: path.join(import.meta.dirname, 'graphql-explorer-client.js'), type: 'text/javascript; charset=utf-8' }),
};

export const ASSET_NAMES = Object.keys(ASSETS);

const loaded = new Map<string, { body: Buffer; type: string; etag: string }>();

/** An asset's bytes, type and ETag (read once), or null for a name the page does not use. */
export function explorerAsset(name: string): { body: Buffer; type: string; etag: string } | null {
  const spec = Object.hasOwn(ASSETS, name) ? ASSETS[name]!() : null;
  if (!spec) return null;
  let a = loaded.get(name);
  if (!a) {
    const body = fs.readFileSync(spec.file);
    a = { body, type: spec.type, etag: `"${body.length.toString(36)}-${fs.statSync(spec.file).mtimeMs.toString(36)}"` };
    loaded.set(name, a);
  }
  return a;
}

/** Scripts and styles from this origin only; GraphiQL styles some elements inline. */
export const EXPLORER_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";

export function explorerPage(): string {
  const asset = (name: string) => `/graphql/assets/${name}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>partsearch GraphQL explorer</title>
<link rel="stylesheet" href="${asset('graphiql.min.css')}">
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
<div id="graphiql">Loading the GraphQL explorer…</div>
<script src="${asset('react.production.min.js')}"></script>
<script src="${asset('react-dom.production.min.js')}"></script>
<script src="${asset('graphiql.min.js')}"></script>
<script src="${asset('explorer.js')}"></script>
</body>
</html>
`;
}
