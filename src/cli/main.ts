/**
 * CLI entry: `partsearch <command> [options]`; `partsearch <command> --help` for each.
 *
 * A command's module is imported only when that command runs: `--help`, `accounts` or `keys` load no
 * search engine, HTTP server or embedding runtime (each command module imports its heavy parts inside
 * `run`). bench/cli.ts measures the start-up of these commands.
 */
import { ConfigError } from '../config.ts';
import { parse, UsageError, type Command } from './args.ts';

interface Entry {
  name: string;
  summary: string;
  load(): Promise<Command>;
}

const COMMANDS: Entry[] = [
  {
    name: 'start',
    summary: 'Load the sample catalogue when the store is empty, then serve (what npm start runs)',
    load: async () => (await import('./serve.ts')).startCommand,
  },
  { name: 'serve', summary: 'Serve the API over the configured data dir exactly as it is', load: async () => (await import('./serve.ts')).serveCommand },
  {
    name: 'worker',
    summary: 'Run AI job workers (discovery, deep dive) beside the API processes sharing REDIS_URL',
    load: async () => (await import('./serve.ts')).workerCommand,
  },
  {
    name: 'ingest',
    summary: 'Index catalogue dumps (JSON Lines, plain or .gz) into a new version, or roll back',
    load: async () => (await import('./ingest.ts')).ingestCommand,
  },
  { name: 'lists', summary: 'Import, create and edit approved lists (AVLs)', load: async () => (await import('./lists.ts')).listsCommand },
  {
    name: 'accounts',
    summary: 'Create and list accounts, add credit, switch subscriptions',
    load: async () => (await import('./accounts.ts')).accountsCommand,
  },
  { name: 'keys', summary: 'Create, list and revoke API keys', load: async () => (await import('./accounts.ts')).keysCommand },
  { name: 'sample', summary: 'Write the generated sample catalogue (dump format) to a folder', load: async () => (await import('./sample.ts')).sampleCommand },
  {
    name: 'relevance',
    summary: 'Run relevance fixtures (nDCG@10, MRR, P@1/5, R@10) and compare reports',
    load: async () => (await import('./relevance.ts')).relevanceCommand,
  },
];

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'usage: partsearch <command> [options]',
    '',
    'commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run 'partsearch <command> --help' for a command's options.",
  ].join('\n');
}

/** Errors whose message says everything (no stack even with PARTSEARCH_DEBUG). */
const EXPLAINED = new Set(['ConfigError', 'IngestInputError']);

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${overview()}\n`);
    return name ? 0 : 2;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    process.stderr.write(`partsearch: unknown command "${name}"\n\n${overview()}\n`);
    return 2;
  }
  const cmd = await entry.load();
  try {
    const { values, positionals, help } = parse(cmd, rest);
    if (help) {
      process.stdout.write(`${entry.summary}\n\nusage: ${cmd.usage}\n`);
      return 0;
    }
    return await cmd.run(values, positionals);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`partsearch ${name}: ${e.message}\n\nusage: ${cmd.usage}\n`);
      return 2;
    }
    process.stderr.write(`partsearch ${name}: ${(e as Error).message}\n`);
    if (process.env.PARTSEARCH_DEBUG && !(e instanceof ConfigError) && !EXPLAINED.has((e as Error).name)) process.stderr.write(`${(e as Error).stack}\n`);
    return 1;
  }
}
