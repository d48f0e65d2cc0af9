/** Child process entry (bench/load.ts startLoadWorker): each IPC message is a runLoad's options; the answer is its LoadResult, or {error}. */
import { runLoad } from './load.ts';

process.on('message', (opts: Parameters<typeof runLoad>[0]) => {
  runLoad(opts).then(
    (r) => process.send!(r),
    (e: unknown) => process.send!({ error: e instanceof Error ? e.message : String(e) }),
  );
});
process.on('disconnect', () => process.exit(0));
