/** `partsearch relevance run|compare|misses`: relevance fixtures (test/relevance) against an index, report diffs, and the constraints judged parts fail. */
import { DEFAULT_FUSION } from '../search/fusion.ts';
import { UsageError, type Command } from './args.ts';

export const DEFAULT_SUITES = ['sample-mpn', 'sample-nl'];

export const relevanceCommand: Command = {
  name: 'relevance',
  usage: `partsearch relevance run [--suite FILE|NAME ...] [--engine sqlite|opensearch] [--retrieval hybrid|lexical|vector ...]
                         [--fusion rrf|normalized ...] [--use-configured] [--no-embeddings] [--out report.json]
partsearch relevance compare A.json B.json [--all]
partsearch relevance misses [--suite FILE|NAME ...] [--engine sqlite|opensearch] [--use-configured]

run: by default builds a temporary index of the generated sample catalogue in the chosen engine
(SQLite in a temp folder; OpenSearch under a unique index prefix, deleted afterwards), with embeddings
when a model is available, runs the suites (default: ${DEFAULT_SUITES.join(', ')} from test/relevance)
and prints mean metrics per suite and per query kind. --use-configured runs against the configured
data dir's live index instead. --retrieval overrides the fixtures' retrieval of agentic queries; give
it several times (or "hybrid,lexical,vector") to run each mode, writing report.<mode>.json. --fusion
picks how hybrid fuses BM25 and kNN (rrf: reciprocal rank fusion, k = 60; normalized: 0.5 x min-max
BM25 + 0.5 x min-max cosine; default ${DEFAULT_FUSION}); several ("rrf,normalized") run each one, writing
report[.<mode>].<fusion>.json. Besides the metrics, agentic suites print the share of queries whose top 5
results satisfy every parsed constraint (spec, value and package constraints; of the top min(5, parts
in the index satisfying them)), overall and per kind.
compare: per-query nDCG@10 of A and B with deltas, wins/losses/ties and mean deltas (B - A).
misses: for each agentic query, the parsed constraints its grade-3 parts fail (a misread query or
data that disagrees with its text), with what the part holds under those names, and a count per
constraint name: where to look for vocabulary gaps.`,
  options: {
    suite: { type: 'string', multiple: true },
    engine: { type: 'string' },
    retrieval: { type: 'string', multiple: true },
    fusion: { type: 'string', multiple: true },
    'use-configured': { type: 'boolean' },
    'no-embeddings': { type: 'boolean' },
    out: { type: 'string' },
    all: { type: 'boolean' },
  },
  allowPositionals: true,
  async run(v, pos) {
    const [sub, ...rest] = pos;
    if (sub === 'run') {
      if (rest.length) throw new UsageError(`unexpected argument "${rest[0]}"`);
      return (await import('./relevance-run.ts')).run(v);
    }
    if (sub === 'compare') {
      if (rest.length !== 2) throw new UsageError('compare needs two report files: A.json B.json');
      const [a, b] = rest as [string, string];
      const { compareReports, formatComparison, readReport } = await import('../relevance/compare.ts');
      const cmp = compareReports(readReport(a), readReport(b));
      if (cmp.length === 0) throw new UsageError('the two reports share no suite');
      process.stdout.write(`${formatComparison(cmp, { labelA: a, labelB: b, all: Boolean(v.all) })}\n`);
      return 0;
    }
    if (sub === 'misses') {
      if (rest.length) throw new UsageError(`unexpected argument "${rest[0]}"`);
      return (await import('./relevance-run.ts')).misses(v);
    }
    throw new UsageError(sub ? `unknown subcommand "${sub}"` : 'a subcommand is required (run, compare or misses)');
  },
};
