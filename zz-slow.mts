import { Redis } from 'ioredis';
const r = new Redis('redis://127.0.0.1:6379');
const log = (await r.call('SLOWLOG', 'GET', '20000')) as any[];
const by = new Map<string, { n: number; us: number; args: number }>();
for (const e of log) {
  const [, , us, args] = e as [number, number, number, string[]];
  if (args[0]?.toLowerCase() !== 'evalsha') continue;
  const k = args[1]!.slice(0, 8);
  const v = by.get(k) ?? { n: 0, us: 0, args: 0 };
  v.n++; v.us += us; v.args += Number(args.length > 30 ? 32 : args.length);
  by.set(k, v);
}
for (const [k, v] of by) console.log(k, v.n, 'calls', (v.us / v.n).toFixed(1), 'us/call');
// number of admissions per call: ARGV length unknown beyond 32 (slowlog truncates); print some raw samples
const ev = log.filter((e: any) => e[3][0].toLowerCase() === 'evalsha').slice(0, 3).map((e: any) => [e[2], e[3].slice(0, 6).join(' '), e[3].at(-1)]);
console.log(ev);
r.disconnect();
