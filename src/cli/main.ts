/** CLI entry: `partsearch <command> [options]`; `partsearch <command> --help` for each. */
import { ConfigError } from '../config.ts';
import { IngestInputError } from '../../ingest/catalog-files.ts';
import { parse, UsageError, type Command } from './args.ts';
import { accountsCommand, keysCommand } from './accounts.ts';
import { ingestCommand } from './ingest.ts';
import { listsCommand } from './lists.ts';
import { relevanceCommand } from './relevance.ts';
import { sampleCommand } from './sample.ts';
import { serveCommand, startCommand, workerCommand } from './serve.ts';

const COMMANDS: Command[] = [
  startCommand,
  serveCommand,
  workerCommand,
  ingestCommand,
  listsCommand,
  accountsCommand,
  keysCommand,
  sampleCommand,
  relevanceCommand,
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

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${overview()}\n`);
    return name ? 0 : 2;
  }
  const cmd = COMMANDS.find((c) => c.name === name);
  if (!cmd) {
    process.stderr.write(`partsearch: unknown command "${name}"\n\n${overview()}\n`);
    return 2;
  }
  try {
    const { values, positionals, help } = parse(cmd, rest);
    if (help) {
      process.stdout.write(`${cmd.summary}\n\nusage: ${cmd.usage}\n`);
      return 0;
    }
    return await cmd.run(values, positionals);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`partsearch ${cmd.name}: ${e.message}\n\nusage: ${cmd.usage}\n`);
      return 2;
    }
    if (e instanceof ConfigError || e instanceof IngestInputError) {
      process.stderr.write(`partsearch ${cmd.name}: ${e.message}\n`);
      return 1;
    }
    process.stderr.write(`partsearch ${cmd.name}: ${(e as Error).message}\n`);
    if (process.env.PARTSEARCH_DEBUG) process.stderr.write(`${(e as Error).stack}\n`);
    return 1;
  }
}
