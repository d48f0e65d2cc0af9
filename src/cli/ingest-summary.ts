/**
 * The ingest's closing summary (stderr), for the data engineer who ran it: what is live now, each count
 * that is not zero with what it means and what to do about it, where the time went, and where the
 * report with one line per record concerned is. `ingest --json` prints the same figures as JSON.
 */
import type { IngestSummary } from '../../ingest/pipeline.ts';
import { shownPath } from './banner.ts';

const n = (x: number) => x.toLocaleString('en-US');

/** Each report kind's count, with what it means for the catalogue and what to do. */
const COUNTS: { key: keyof IngestSummary; label: string; meaning: string }[] = [
  {
    key: 'rejected',
    label: 'rejected',
    meaning: 'records not indexed: not JSON, not UTF-8, over 64 MiB, or failing the dump schema. Fix them in the dump',
  },
  {
    key: 'duplicates',
    label: 'duplicates',
    meaning: 'records with the manufacturer and MPN of an earlier record: the later one was indexed in its place',
  },
  { key: 'failed', label: 'failed', meaning: 'records the search engine refused after retries: not indexed' },
  {
    key: 'amended',
    label: 'amended',
    meaning:
      'records indexed with a correction: a status that is no lifecycle status (indexed as unknown), or a category path missing from the categories file (added to the tree)',
  },
  {
    key: 'unmatchedListMembers',
    label: 'unmatched list members',
    meaning: 'approved-list members (manufacturer + MPN) that match no indexed part: left out of their list. Fix the lists file, or add the parts to the dump',
  },
];

/** What the version's vectors are: how many parts the model embedded, how many kept vectors were reused, what is left for later. */
function embeddingWords(s: IngestSummary): string {
  if (!s.embedded) return 'embeddings: none (lexical-only: agentic search ranks by BM25 alone on this version)';
  const v = s.vectors;
  const done = [
    ...(v.embedded ? [`${n(v.embedded)} parts embedded (${s.embedSeconds.toFixed(1)} s)`] : []),
    ...(v.reused ? [`${n(v.reused)} vectors reused from earlier ingests`] : []),
  ];
  if (v.pending)
    return `embeddings: ${[...done, `${n(v.pending)} parts to embed after the swap: agentic search stays lexical-only until they are`].join(', ')}`;
  return `embeddings: ${done.join(', ') || 'none needed'}; agentic search is hybrid (BM25 and vectors)`;
}

export function summaryText(s: IngestSummary): string {
  const lines = [
    `ingest: version ${s.version} is live: ${n(s.indexed)} parts indexed from ${n(s.read)} records read in ${s.seconds.toFixed(1)} s (${n(Math.round(s.partsPerSecond))} records/s; ` +
      `${s.streamSeconds.toFixed(1)} s reading and writing, ${s.finishSeconds.toFixed(1)} s building the index and swapping)`,
  ];
  const width = Math.max(...COUNTS.map((c) => c.label.length));
  const shown = COUNTS.filter((c) => (s[c.key] as number) > 0);
  for (const c of shown) lines.push(`  ${c.label.padEnd(width)} ${n(s[c.key] as number).padStart(8)}  ${c.meaning}`);
  if (shown.length === 0) lines.push('  every record was indexed as written: none rejected, duplicated, refused or amended');
  lines.push(`  ${embeddingWords(s)}`);
  if (s.reportFile) lines.push(`ingest: report, one JSON line per record counted above (kind, file, line, reason, the record): ${shownPath(s.reportFile)}`);
  return `${lines.join('\n')}\n`;
}

export function printSummary(s: IngestSummary, out: NodeJS.WritableStream = process.stderr): void {
  out.write(summaryText(s));
}
