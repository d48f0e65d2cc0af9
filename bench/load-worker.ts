/** Child process entry: argv[2] is a JSON {url, headers, concurrency, seconds}; prints the LoadResult as JSON. */
import { runLoad } from './load.ts';

const opts = JSON.parse(process.argv[2]!) as Parameters<typeof runLoad>[0];
process.stdout.write(`${JSON.stringify(await runLoad(opts))}\n`);
