/**
 * Which parsed constraints a suite's own best parts fail (`partsearch relevance misses`): for every
 * agentic query, the query is read as agentic search reads it (understandQuery) and each of its
 * grade-3 parts is checked against each parsed constraint, as the ranking checks them
 * (constraintScore's checks, one at a time: satisfiesLoosely and meetsPackage). A judged part failing a constraint is either a
 * misreading of the query (a role, a unit, a package spelling) or data that disagrees with the text it
 * was judged on; either way the ranking puts that part below the parts that meet it. Relevance
 * engineers read the list to find vocabulary gaps: the summary counts the failures per attribute.
 */
import type { PartRecord } from '../catalog/part.ts';
import { meetsPackage } from '../search/ranking-keys.ts';
import { satisfiesLoosely } from '../search/spec-match.ts';
import { understandQuery, type SpecConstraint, type ValueConstraint } from '../search/understand.ts';
import { specAttributeId } from '../vocabulary/attributes.ts';
import type { RelevanceQuery } from './format.ts';

export interface ConstraintMiss {
  query: string;
  id: string;
  /** The judged part (grade 3). */
  slug: string;
  /** What failed, as "<attribute> <kind> <value> [query text]", "<attribute> = <value> [query text]" or "package <codes>". */
  constraint: string;
  /** The part's own specs under the constraint's attributes (or its package), as stored. */
  found: string;
}

export interface MissesReport {
  /** Grade-3 parts looked at (parts not in the index are skipped). */
  judged: number;
  /** Of those, the ones meeting every parsed constraint of their query. */
  meetingAll: number;
  misses: ConstraintMiss[];
  /** Failures per constraint: its first attribute id, or "package"; most first. */
  byName: [string, number][];
}

const describe = (c: SpecConstraint | ValueConstraint): string =>
  'unit' in c ? `${c.attributes[0]} ${c.kind} ${c.value}${c.unit ?? ''} [${c.source}]` : `${c.attributes[0]} = ${c.values.join(' | ')} [${c.source}]`;

function storedUnder(p: PartRecord, attributes: readonly string[]): string {
  const held = p.specs.filter((s) => attributes.includes(specAttributeId(s) ?? '')).map((s) => `${s.name}=${s.value}`);
  return held.length ? held.join('; ') : '(none of these attributes)';
}

/** Checks every grade-3 part of every agentic query; `part` looks a judged slug up in the index. */
export async function findMisses(queries: readonly RelevanceQuery[], part: (slug: string) => Promise<PartRecord | null>): Promise<MissesReport> {
  const report: MissesReport = { judged: 0, meetingAll: 0, misses: [], byName: [] };
  const byName = new Map<string, number>();
  for (const q of queries) {
    if (q.endpoint !== 'agentic') continue;
    const u = understandQuery(q.query);
    for (const [slug, grade] of Object.entries(q.judgments)) {
      if (grade !== 3) continue;
      const p = await part(slug);
      if (!p) continue;
      report.judged++;
      const before = report.misses.length;
      const miss = (name: string, constraint: string, found: string) => {
        report.misses.push({ query: q.query, id: q.id, slug, constraint, found });
        byName.set(name, (byName.get(name) ?? 0) + 1);
      };
      for (const c of [...u.specs, ...u.values]) if (!satisfiesLoosely(p.specs, c)) miss(c.attributes[0]!, describe(c), storedUnder(p, c.attributes));
      if (u.packages.length && !meetsPackage(u, p)) miss('package', `package ${u.packages.join(' | ')}`, p.package ?? '(no package)');
      if (report.misses.length === before) report.meetingAll++;
    }
  }
  report.byName = [...byName.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return report;
}

export function formatMisses(r: MissesReport): string {
  const lines = r.misses.map((m) => `${m.id}  ${m.slug}\n    query: ${m.query}\n    fails: ${m.constraint}\n    holds: ${m.found}`);
  const summary = [
    `judged parts (grade 3) found in the index: ${r.judged}; meeting every parsed constraint of their query: ${r.meetingAll}`,
    ...(r.byName.length ? ['failures by constraint:', ...r.byName.map(([n, c]) => `  ${String(c).padStart(4)}  ${n}`)] : []),
  ];
  return [...lines, '', ...summary].join('\n');
}
