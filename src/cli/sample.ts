/** `partsearch sample`: write the project's deterministic sample catalogue in the dump format. */
import path from 'node:path';
import { UsageError, type Command } from './args.ts';

export const sampleCommand: Command = {
  name: 'sample',
  usage:
    'partsearch sample [--out DIR] [--parts N] [--seed N]\n\nDefaults: --out ./data/sample, about 2,500 parts, seed 42. The same seed gives the same files.',
  options: { out: { type: 'string' }, parts: { type: 'string' }, seed: { type: 'string' } },
  async run(v) {
    const parts = v.parts ? Number(v.parts) : undefined;
    const seed = v.seed ? Number(v.seed) : undefined;
    if (parts !== undefined && !(Number.isInteger(parts) && parts > 0)) throw new UsageError('--parts must be a positive whole number');
    if (seed !== undefined && !Number.isInteger(seed)) throw new UsageError('--seed must be a whole number');
    const { writeSampleCatalogue } = await import('../sample/generate.ts');
    const out = path.resolve((v.out as string | undefined) ?? './data/sample');
    const files = await writeSampleCatalogue(out, { parts, seed });
    process.stdout.write(`${JSON.stringify(files, null, 2)}\n`);
    return 0;
  },
};
