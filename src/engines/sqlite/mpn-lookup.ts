/**
 * MPN key lookups of the SQLite adapter (the port's mpnLookup): exact and prefix over the parts' and
 * aliases' normalised keys, infix through the trigram index, fuzzy: the keys one edit away looked up
 * exactly (mpn-neighbours.ts), else keys two edits away through the trigram index, verified by edit
 * distance.
 */
import type Database from 'better-sqlite3';
import { editDistance } from '../../catalog/edit-distance.ts';
import { fuzzyEdits } from '../mpn-tiers.ts';
import { NEIGHBOURS_MAX_KEY, oneEditNeighbours } from '../mpn-neighbours.ts';
import type { MpnHit, MpnLookupRequest } from '../port.ts';
import { filterSql } from './filters.ts';
import type { VersionTables } from './schema.ts';
import { trigramSpread } from './text.ts';
import { Lru } from '../../util/lru.ts';

export function createMpnLookup(stmt: (sql: string) => Database.Statement, tables: () => VersionTables | null) {
  /** The fuzzy fallback's kept trigram rows of the live version, and its scratch counts by row. */
  let grams: { tri: string; lists: Lru<string, Int32Array>; counts: Uint8Array; weights: Float64Array } | null = null;

  /**
   * The rows of the keys sharing the most of `key`'s trigrams, at most FUZZY_CANDIDATES, most shared
   * first, each trigram weighing by its rarity (ties by rowid). A key within `edits` edits shares all but
   * at most 3 x `edits` of them (each edit touches at most three), so only keys sharing at least that
   * many (and one) are counted. Each
   * trigram's rows are read from the trigram index once and kept for the version (FUZZY_GRAM_ENTRIES
   * in all, the least recently used dropped), and the counts are summed over typed arrays. The ranking
   * this replaces had FTS5 score every key sharing any trigram: about 1 s at 578k parts for a key that
   * matches nothing ("DSO8", "TO220TO263"), the common case of the MPN-like words of a natural-language
   * query.
   */
  function sharedTrigramRows(t: VersionTables, key: string, edits: number): number[] {
    if (key.length < 3) return [];
    if (grams?.tri !== t.tri)
      grams = { tri: t.tri, lists: new Lru(FUZZY_GRAM_ENTRIES, (rows) => rows.length), counts: new Uint8Array(0), weights: new Float64Array(0) };
    const g = grams;
    // (at most 255: the counts are bytes; MPN keys are far shorter)
    const distinct = [...new Set(Array.from({ length: key.length - 2 }, (_, i) => key.slice(i, i + 3)))].slice(0, 255);
    const lists = distinct.map((gram) => gramRows(t, g, gram));
    const need = Math.max(1, distinct.length - 3 * edits);
    let maxRow = 0;
    for (const l of lists) if (l.length) maxRow = Math.max(maxRow, l[l.length - 1]!);
    if (g.counts.length <= maxRow) {
      g.counts = new Uint8Array(maxRow + 1);
      g.weights = new Float64Array(maxRow + 1);
    }
    const { counts, weights } = g;
    const touched: number[] = [];
    for (const l of lists) {
      // A rarer trigram weighs more (as in the BM25 ranking this replaces): its rows are likelier the key's.
      const w = Math.log(1 + (maxRow + 1) / l.length);
      for (let i = 0; i < l.length; i++) {
        const r = l[i]!;
        const c = counts[r]!;
        counts[r] = c + 1;
        weights[r] = weights[r]! + w;
        if (c === 0) touched.push(r);
      }
    }
    const found: number[] = [];
    for (const r of touched) if (counts[r]! >= need) found.push(r);
    found.sort((a, b) => weights[b]! - weights[a]! || a - b);
    for (const r of touched) {
      counts[r] = 0;
      weights[r] = 0;
    }
    return found.slice(0, FUZZY_CANDIDATES);
  }

  /** A trigram's rows (ascending), kept per version. */
  function gramRows(t: VersionTables, g: NonNullable<typeof grams>, gram: string): Int32Array {
    const kept = g.lists.get(gram);
    if (kept) return kept;
    const rows = stmt(`SELECT rowid FROM ${t.tri} WHERE ${t.tri} MATCH ? ORDER BY rowid`)
      .pluck()
      .all(`"${gram.replace(/"/g, '""')}"`) as number[];
    return g.lists.set(gram, Int32Array.from(rows));
  }

  return function mpnLookup(req: MpnLookupRequest): MpnHit[] {
    const t = tables();
    if (!t || !req.key) return [];
    const f = filterSql(req.filters ?? {}, t);
    const withAliases = req.aliases ?? req.mode !== 'infix';
    const limit = Math.max(1, req.limit);
    const hits = new Map<number, MpnHit>();
    const add = (rows: { id: number; k: string }[], alias: boolean) => {
      for (const r of rows) if (!hits.has(r.id)) hits.set(r.id, { id: r.id, matched: r.k, alias });
    };
    if (req.mode === 'exact' || req.mode === 'prefix') {
      const cond = req.mode === 'exact' ? '= ?' : '>= ? AND {col} < ?';
      const keyParams = req.mode === 'exact' ? [req.key] : [req.key, `${req.key}\uffff`];
      const order = 'ORDER BY length(k), k, id';
      // Through the key's index whatever the filters: a key's range is always the narrowest read. With a
      // status filter (agentic search's MPN-like words) SQLite walked the (status, stock) index over every
      // active part instead (about 1 s at 578k parts) where the sampled statistics made the status look
      // selective: the ingest now counts that figure (load-core.ts), but indexes loaded before it, and
      // statuses of very different sizes, would mislead it still.
      add(
        stmt(
          `SELECT p.id AS id, p.mpn_norm AS k FROM ${t.parts} p INDEXED BY ${t.parts}_mpn WHERE p.mpn_norm ${cond.replace('{col}', 'p.mpn_norm')} AND ${f.sql} ${order} LIMIT ?`,
        ).all(...keyParams, ...f.params, limit) as { id: number; k: string }[],
        false,
      );
      if (withAliases && hits.size < limit) {
        add(
          stmt(
            `SELECT p.id AS id, a.alias_norm AS k FROM ${t.aliases} a JOIN ${t.parts} p ON p.rowid = a.prow WHERE a.alias_norm ${cond.replace('{col}', 'a.alias_norm')} AND ${f.sql} ${order} LIMIT ?`,
          ).all(...keyParams, ...f.params, limit) as { id: number; k: string }[],
          true,
        );
      }
      return [...hits.values()].slice(0, limit);
    }
    if (req.mode === 'infix') {
      // Substring of the key: LIKE over the trigram index (keys of 3+ characters), a bounded scan
      // below. Keys are letters and digits only (normaliseMpn), so no escaping: an ESCAPE clause
      // would stop SQLite from using the trigram index (a full scan, ~1 s at 580k parts).
      if (!/^[\p{L}\p{N}]+$/u.test(req.key)) return [];
      const like = `%${req.key}%`;
      // Candidates through the trigram index (trigramSpread; LIKE on the FTS column would read the
      // doclists of every trigram of the key), then LIKE on the parts column keeps exactly the keys
      // containing the query.
      const grams = req.key.length >= 3 ? trigramSpread(req.key) : null;
      const rows = grams
        ? stmt(
            `SELECT p.id AS id, p.mpn_norm AS k FROM ${t.tri} x JOIN ${t.parts} p ON p.rowid = x.rowid WHERE ${t.tri} MATCH ? AND p.mpn_norm LIKE ? AND ${f.sql} ORDER BY length(p.mpn_norm), p.mpn_norm, p.id LIMIT ?`,
          ).all(grams, like, ...f.params, limit)
        : stmt(
            `SELECT p.id AS id, p.mpn_norm AS k FROM ${t.parts} p WHERE p.mpn_norm LIKE ? AND ${f.sql} ORDER BY length(p.mpn_norm), p.mpn_norm, p.id LIMIT ?`,
          ).all(like, ...f.params, limit);
      add(rows as { id: number; k: string }[], false);
      return [...hits.values()];
    }
    // fuzzy: candidates verified by edit distance <= 2 (1 for short keys)
    const key = req.key;
    const maxEdits = fuzzyEdits(key);
    const verified = (rows: { id: number; k: string }[], edits: number) =>
      rows
        .map((r) => ({ ...r, d: editDistance(key, r.k, edits) }))
        .filter((r) => r.d <= edits)
        .sort((a, b) => a.d - b.d || Math.abs(a.k.length - key.length) - Math.abs(b.k.length - key.length) || (a.k < b.k ? -1 : a.k > b.k ? 1 : a.id - b.id));
    // Keys one edit away are the answer when there are some: keys two edits away rank after them anyway.
    // A short key's are looked up exactly, its own and alias keys (mpn-neighbours.ts): an edit inside a
    // short key can leave it no trigram in common with the target (LM538, LM358).
    if (key.length <= NEIGHBOURS_MAX_KEY) {
      const near = JSON.stringify(oneEditNeighbours(key));
      const own = stmt(
        `SELECT p.id AS id, p.mpn_norm AS k FROM json_each(?) j CROSS JOIN ${t.parts} p INDEXED BY ${t.parts}_mpn ON p.mpn_norm = j.value WHERE ${f.sql}`,
      ).all(near, ...f.params) as { id: number; k: string }[];
      const aliased = stmt(
        `SELECT p.id AS id, a.alias_norm AS k FROM json_each(?) j CROSS JOIN ${t.aliases} a ON a.alias_norm = j.value JOIN ${t.parts} p ON p.rowid = a.prow WHERE ${f.sql}`,
      ).all(near, ...f.params) as { id: number; k: string }[];
      if (own.length + aliased.length > 0) {
        add(verified(own, 1), false);
        add(verified(aliased, 1), true);
        return [...hits.values()].slice(0, limit);
      }
    } else {
      // A longer key's edit leaves one half of it intact, but for a swap of the two characters either side
      // of the middle: an intact half is found through the trigram index like an infix (its first, middle
      // and last trigram) among keys of about the right length, and that one swap is looked up exactly.
      const mid = Math.floor(key.length / 2);
      const near = new Map<number, { id: number; k: string }>();
      for (const half of [key.slice(0, mid), key.slice(mid)]) {
        const rows = stmt(
          `SELECT p.id AS id, p.mpn_norm AS k FROM ${t.tri} x JOIN ${t.parts} p ON p.rowid = x.rowid WHERE ${t.tri} MATCH ? AND length(p.mpn_norm) BETWEEN ? AND ? AND ${f.sql} LIMIT 5000`,
        ).all(trigramSpread(half), key.length - 1, key.length + 1, ...f.params) as { id: number; k: string }[];
        for (const r of rows) near.set(r.id, r);
      }
      const swapped = key.slice(0, mid - 1) + key[mid] + key[mid - 1] + key.slice(mid + 1);
      const rows = stmt(`SELECT p.id AS id, p.mpn_norm AS k FROM ${t.parts} p INDEXED BY ${t.parts}_mpn WHERE p.mpn_norm = ? AND ${f.sql}`).all(
        swapped,
        ...f.params,
      ) as { id: number; k: string }[];
      for (const r of rows) near.set(r.id, r);
      const oneEdit = verified([...near.values()], 1);
      if (oneEdit.length > 0) {
        add(oneEdit, false);
        return [...hits.values()].slice(0, limit);
      }
    }
    // Otherwise the keys sharing the most trigrams with it, up to FUZZY_CANDIDATES of them (counted from
    // the trigrams' kept row lists), read with the filters and verified.
    const ids = sharedTrigramRows(t, key, maxEdits);
    if (ids.length === 0) return [];
    const rows = stmt(
      `SELECT p.id AS id, p.mpn_norm AS k FROM json_each(?) j CROSS JOIN ${t.parts} p ON p.rowid = j.value WHERE length(p.mpn_norm) BETWEEN ? AND ? AND ${f.sql}`,
    ).all(JSON.stringify(ids), key.length - maxEdits, key.length + maxEdits, ...f.params) as { id: number; k: string }[];
    add(verified(rows, maxEdits), false);
    return [...hits.values()].slice(0, limit);
  };
}

/** Most candidate keys the fuzzy fallback reads and verifies (those sharing the most trigrams). */
const FUZZY_CANDIDATES = 2000;
/** Trigram row entries kept per version for the fuzzy fallback (4 bytes each). */
const FUZZY_GRAM_ENTRIES = 4_000_000;
