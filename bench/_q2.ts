import { loadConfig } from '../src/config.ts';
import { createServices } from '../src/composition.ts';
import { agenticSearch } from '../src/search/agentic.ts';
import { silentLogger } from '../src/log.ts';
const s = await createServices(loadConfig(process.env), { log: silentLogger });
const view = (await s.catalog.get())!;
for (const q of process.argv.slice(2)) {
  const r = await agenticSearch(s.engine, s.embedder, true, { query: q, limit: 5, offset: 0, filters: { status: ['active'] }, categories: view.categoryMatcher(), specNames: view.specNameIndex() });
  console.log(`== ${q}`);
  for (const p of r.parts) console.log('   ', p.mpn.slice(0, 22).padEnd(22), String(p.category?.name).slice(0, 30).padEnd(30), p.package, (p.description ?? '').slice(0, 70));
}
process.exit(0);
