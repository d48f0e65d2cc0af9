/**
 * Group-committed debits of the SQLite account store: one batch, applied inside the caller's
 * `BEGIN IMMEDIATE` transaction.
 */
import type Database from 'better-sqlite3';
import type { DebitResult } from '../port.ts';
import { UnknownAccountError, type CheckedDebit } from '../validate.ts';

/** The prepared statements a batch needs (the store's own). */
export interface DebitStatements {
  accountById: Database.Statement<[string], { balance_micros: number }>;
  refExists: Database.Statement<[string, string], unknown>;
  usageOf: Database.Statement<[string, string, string], { units: number }>;
  addBalance: Database.Statement<[number, string], unknown>;
  addUsage: Database.Statement<[string, string, string, number, number]>;
  ledger: Database.Statement<[string, string, number, number, string | null, number | null, string | null, string | null, string]>;
  insertRef: Database.Statement<[string, string, number]>;
}

/**
 * A batch of debits in one transaction, in arrival order, each checked exactly as if alone against
 * the balance, usage and references left by the debits before it (tracked in memory: nobody else
 * writes during the transaction). The writes come at the end, grouped: one balance update per
 * account, one usage upsert and one ledger entry per account, period and class (units and amount
 * summed; the entries' balance_after chain from the balance before the batch, refunds first), one
 * more for the refunds among them, and a ledger entry of its own for every debit with a reference. A
 * debit of an unknown account fails alone; an unexpected SQLite error fails the whole batch (rolled
 * back: nobody is charged).
 */
export function applyDebits(q: DebitStatements, ds: readonly CheckedDebit[]): (DebitResult | UnknownAccountError)[] {
  const start = new Map<string, number>();
  const balance = new Map<string, number>();
  const usedBefore = new Map<string, number>();
  const usage = new Map<string, { d: CheckedDebit; units: number; micros: number }>();
  const refs = new Set<string>();
  const ledger = new Map<string, { d: CheckedDebit; units: number; micros: number }>();
  const out: (DebitResult | UnknownAccountError)[] = [];
  for (const d of ds) {
    let bal = balance.get(d.account_id);
    if (bal === undefined) {
      const row = q.accountById.get(d.account_id);
      if (!row) {
        out.push(new UnknownAccountError(d.account_id));
        continue;
      }
      bal = row.balance_micros;
      start.set(d.account_id, bal);
      balance.set(d.account_id, bal);
    }
    const rk = d.reference === null ? null : `${d.account_id}\u0000${d.reference}`;
    if (rk !== null) {
      if (refs.has(rk) || q.refExists.get(d.account_id, d.reference!)) {
        out.push({ ok: true, balance_micros: bal });
        continue;
      }
    }
    if (bal < d.amount_micros) {
      out.push({ ok: false, reason: 'insufficient_credit', balance_micros: bal });
      continue;
    }
    const uk = `${d.account_id}\u0000${d.period}\u0000${d.usage_class}`;
    const u = usage.get(uk);
    if (d.quota !== null) {
      let before = usedBefore.get(uk);
      if (before === undefined) {
        before = q.usageOf.get(d.account_id, d.period, d.usage_class)?.units ?? 0;
        usedBefore.set(uk, before);
      }
      if (before + (u?.units ?? 0) + d.units > d.quota) {
        out.push({ ok: false, reason: 'usage_limit_exceeded', balance_micros: bal });
        continue;
      }
    }
    if (u) {
      u.units += d.units;
      u.micros += d.amount_micros;
    } else usage.set(uk, { d, units: d.units, micros: d.amount_micros });
    bal -= d.amount_micros;
    balance.set(d.account_id, bal);
    if (d.amount_micros !== 0 || d.reference !== null) {
      // One ledger entry per account, period and class in a batch, and one more for its refunds (a refund
      // merged with charges would hide, or net them to a zero entry); a debit with a reference keeps its own.
      const lk = rk !== null ? `ref\u0000${rk}` : d.amount_micros < 0 ? `refund\u0000${uk}` : uk;
      const e = ledger.get(lk);
      if (e) {
        e.units += d.units;
        e.micros += d.amount_micros;
      } else ledger.set(lk, { d, units: d.units, micros: d.amount_micros });
    }
    if (rk !== null) refs.add(rk);
    out.push({ ok: true, balance_micros: bal });
  }
  for (const [id, bal] of balance) if (bal !== start.get(id)) q.addBalance.run(bal - start.get(id)!, id);
  for (const { d, units, micros } of usage.values()) q.addUsage.run(d.account_id, d.period, d.usage_class, units, micros);
  const at = new Date().toISOString();
  const running = new Map(start);
  // Refunds first: the entries' balance_after then never falls below the batch's final balance (charges
  // summed into one entry and paid by a refund of the same batch, written before it, could show less than
  // zero), and every charge is still covered, as it was in arrival order.
  const entries = [...ledger.values()];
  for (const { d, units, micros } of [...entries.filter((e) => e.micros < 0), ...entries.filter((e) => e.micros >= 0)]) {
    const after = running.get(d.account_id)! - micros;
    running.set(d.account_id, after);
    const entry = q.ledger.run(d.account_id, 'debit', -micros, after, d.usage_class, units, d.period, d.reference, at);
    if (d.reference !== null) q.insertRef.run(d.account_id, d.reference, Number(entry.lastInsertRowid));
  }
  return out;
}
