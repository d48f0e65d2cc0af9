/**
 * DDL of the SQLite engine. Global tables hold the live/previous version pointers and catalogue
 * snapshots; each index version owns a set of tables suffixed with its name (parts_v3, fts_v3, ...),
 * so a load builds beside the live version and a swap is one UPDATE.
 */

export const GLOBAL_DDL = `
CREATE TABLE IF NOT EXISTS engine_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS catalog_meta (version TEXT PRIMARY KEY, meta TEXT NOT NULL);
`;

/** Full-text columns, in order, and their BM25 weights. */
export const FTS_COLUMNS = [
  ['mpn', 10],
  ['manufacturer', 4],
  ['description', 3],
  ['long_description', 1],
  ['category', 2],
  ['package', 3],
  ['specs', 1.5],
] as const;

export function versionTables(v: string) {
  return {
    parts: `parts_${v}`,
    aliases: `aliases_${v}`,
    specs: `specs_${v}`,
    fts: `fts_${v}`,
    tri: `tri_${v}`,
    vec: `vec_${v}`,
    /** Each vector's key (embeddings/key.ts), by part id: which vectors two versions share. */
    vkeys: `vkeys_${v}`,
    members: `members_${v}`,
    prices: `prices_${v}`,
  };
}
export type VersionTables = ReturnType<typeof versionTables> & {
  /** False when the specs table has no attribute column (versions loaded before it: engine.ts says which). */
  specAttributes?: boolean;
};

export function createVersionDdl(v: string, dims: number | null): string {
  const t = versionTables(v);
  return `
CREATE TABLE ${t.parts} (
  -- AUTOINCREMENT: a replaced duplicate must never get the deleted row's rowid back, or the
  -- sweep in finish() would keep the old row's specs/aliases/members.
  rowid INTEGER PRIMARY KEY AUTOINCREMENT,
  id INTEGER NOT NULL,
  mpn_norm TEXT NOT NULL,
  mfr_slug TEXT NOT NULL,
  mpn_slug TEXT NOT NULL,
  status TEXT NOT NULL,
  category TEXT,
  stock INTEGER NOT NULL,
  min_price REAL,
  record TEXT NOT NULL,
  ${FTS_COLUMNS.map(([c]) => `t_${c} TEXT`).join(',\n  ')}
);
CREATE TABLE ${t.aliases} (alias_norm TEXT NOT NULL, prow INTEGER NOT NULL);
-- attr: the spec's canonical attribute id (vocabulary/attributes.json), null when its name has none.
CREATE TABLE ${t.specs} (
  prow INTEGER NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL,
  num REAL, min REAL, max REAL, unit TEXT, attr TEXT
);
CREATE TABLE ${t.members} (list_id TEXT NOT NULL, prow INTEGER NOT NULL, PRIMARY KEY (list_id, prow)) WITHOUT ROWID;
-- Price bands (catalog/prices.ts): an order of qty_from up to qty_to (exclusive; NULL: no end) units pays price (USD).
CREATE TABLE ${t.prices} (prow INTEGER NOT NULL, qty_from INTEGER NOT NULL, qty_to INTEGER, price REAL NOT NULL);
-- Full-text tables over the parts table (external content), filled while the load streams.
CREATE VIRTUAL TABLE ${t.fts} USING fts5(${FTS_COLUMNS.map(([c]) => `t_${c}`).join(', ')}, content='${t.parts}', content_rowid='rowid',
  tokenize="unicode61 remove_diacritics 2 tokenchars '.'");
CREATE VIRTUAL TABLE ${t.tri} USING fts5(mpn_norm, content='${t.parts}', content_rowid='rowid', tokenize='trigram',
  detail='none', columnsize=0);
${dims ? `CREATE VIRTUAL TABLE ${t.vec} USING vec0(part_id INTEGER PRIMARY KEY, embedding float[${dims}] distance_metric=cosine);` : ''}
${dims ? `CREATE TABLE ${t.vkeys} (part_id INTEGER PRIMARY KEY, key BLOB NOT NULL);` : ''}
`;
}

/**
 * Secondary B-tree indexes of a version on columns with few distinct values (category,
 * manufacturer): created with the tables and maintained during the load, where each insert lands
 * at the end of its key's run (rowids ascend), which costs less than a pass over the table at the end.
 */
export function earlyIndexDdl(v: string): string {
  const t = versionTables(v);
  return `
CREATE INDEX ${t.parts}_cat ON ${t.parts}(category);
CREATE INDEX ${t.parts}_mfr ON ${t.parts}(mfr_slug);
`;
}

/**
 * The other secondary B-tree indexes, built after the bulk load in one pass each (their keys arrive
 * in random order: maintaining them row by row costs about twice as much). `status_stock` is the
 * order of filter-only searches (stock first) and, scanned with the filters' sets probed, covers
 * broad filters without a seek per part; it holds the category too, so that a walk for the best-stocked
 * parts of some categories reads no part row (agentic search's read of the named categories' parts:
 * the 100 best-stocked of four crystal categories at 578k, 53-62 -> 8 ms); `cat_stock` reads the
 * best-stocked parts of given categories one category at a time (filter-plans.ts bestStockedInCategories);
 * `min_price` selects the parts under a price (a `price.max` filter that few parts pass, or none: the
 * 578k slim catalogue has no prices, and the walk in stock order tested every part, 1.1-1.9 s);
 * `specs_part` covers facet counts by name and value, and by attribute and value (versions built before these
 * were added still work, slower); `specs_attr_num` selects the specs of an attribute, for ranges and value
 * lists (an attribute's rows are few enough to test values on; a second (attr, value) index cost 1.4 s of
 * a 29k-part ingest's 45).
 */
export function lateIndexDdl(v: string): string {
  const t = versionTables(v);
  return `
CREATE UNIQUE INDEX ${t.parts}_id ON ${t.parts}(id);
CREATE INDEX ${t.parts}_status_stock ON ${t.parts}(status, stock DESC, id, category);
CREATE INDEX ${t.parts}_cat_stock ON ${t.parts}(category, status, stock DESC, id);
CREATE INDEX ${t.parts}_min_price ON ${t.parts}(min_price);
CREATE INDEX ${t.parts}_mpn ON ${t.parts}(mpn_norm);
CREATE INDEX ${t.parts}_slug ON ${t.parts}(mfr_slug, mpn_slug COLLATE NOCASE);
CREATE INDEX ${t.aliases}_norm ON ${t.aliases}(alias_norm);
CREATE INDEX ${t.specs}_part ON ${t.specs}(prow, name, value, attr);
CREATE INDEX ${t.specs}_name_value ON ${t.specs}(name, value);
CREATE INDEX ${t.specs}_name_num ON ${t.specs}(name, min, max);
CREATE INDEX ${t.specs}_attr_num ON ${t.specs}(attr, min, max);
CREATE INDEX ${t.members}_part ON ${t.members}(prow);
CREATE INDEX ${t.prices}_price ON ${t.prices}(price, qty_from, qty_to, prow);
CREATE INDEX ${t.prices}_part ON ${t.prices}(prow, qty_from, qty_to, price);
`;
}

export function dropVersionDdl(v: string): string {
  return Object.values(versionTables(v))
    .map((name) => `DROP TABLE IF EXISTS ${name};`)
    .join('\n');
}
