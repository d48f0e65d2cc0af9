/**
 * MPN key lookups of the SQLite adapter (the port's mpnLookup): exact and prefix over the parts' and
 * aliases' normalised keys, infix through the trigram index, fuzzy (one or two edits) through the
 * trigram index and verified by edit distance.
 */
import type Database from 'better-sqlite3';
import { editDistance } from '../../catalog/edit-distance.ts';
import { fuzzyEdits } from '../mpn-tiers.ts';
import type { MpnHit, MpnLookupRequest } from '../port.ts';
import { filterSql } from './filters.ts';
import type { VersionTables } from './schema.ts';
import { trigramMatch, trigramSpread } from './text.ts';

export function createMpnLookup(stmt: (sql: string) => Database.Statement, tables: () => VersionTables | null) {
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
      add(
        stmt(`SELECT p.id AS id, p.mpn_norm AS k FROM ${t.parts} p WHERE p.mpn_norm ${cond.replace('{col}', 'p.mpn_norm')} AND ${f.sql} ${order} LIMIT ?`).all(
          ...keyParams,
          ...f.params,
          limit,
        ) as { id: number; k: string }[],
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
    // One edit leaves one half of the key intact (bar a transposition across the middle), and an intact
    // half is found through the trigram index like an infix (its first, middle and last trigram), among
    // keys of about the right length. When that finds keys one edit away, they are the answer: keys two
    // edits away rank after them anyway.
    const mid = Math.floor(key.length / 2);
    if (mid >= 3) {
      const near = new Map<number, { id: number; k: string }>();
      for (const half of [key.slice(0, mid), key.slice(mid)]) {
        const rows = stmt(
          `SELECT p.id AS id, p.mpn_norm AS k FROM ${t.tri} x JOIN ${t.parts} p ON p.rowid = x.rowid WHERE ${t.tri} MATCH ? AND length(p.mpn_norm) BETWEEN ? AND ? AND ${f.sql} LIMIT 5000`,
        ).all(trigramSpread(half), key.length - 1, key.length + 1, ...f.params) as { id: number; k: string }[];
        for (const r of rows) near.set(r.id, r);
      }
      const oneEdit = verified([...near.values()], 1);
      if (oneEdit.length > 0) {
        add(oneEdit, false);
        return [...hits.values()].slice(0, limit);
      }
    }
    // Otherwise the keys sharing the most trigrams with it (ranked over every key sharing one).
    const match = trigramMatch(key);
    if (!match) return [];
    const rows = stmt(
      `SELECT p.id AS id, p.mpn_norm AS k FROM (SELECT rowid, rank FROM ${t.tri} WHERE ${t.tri} MATCH ? ORDER BY rank LIMIT 400) x JOIN ${t.parts} p ON p.rowid = x.rowid WHERE ${f.sql}`,
    ).all(match, ...f.params) as { id: number; k: string }[];
    add(verified(rows, maxEdits), false);
    return [...hits.values()].slice(0, limit);
  };
}
