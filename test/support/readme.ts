/**
 * The executable parts of README.md: fenced `sh` blocks preceded by a marker comment
 *
 *   <!-- readme-test: ID -->            a block of commands, run in the reader's shell
 *   <!-- readme-test: ID server -->     a command that serves until Ctrl-C (its last command)
 *
 * and a shell session that runs them as a reader would, one after another in one bash (variables set
 * by one block, such as KEY, are there for the next), each block's output collected up to a marker.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface ReadmeBlock {
  id: string;
  server: boolean;
  /** The block's text, as written. */
  text: string;
  /** 1-based line of the marker in README.md. */
  line: number;
}

const MARKER = /^<!--\s*readme-test:\s*([\w-]+)(\s+server)?\s*(?:\([^)]*\))?\s*-->\s*$/;

export function readmeBlocks(markdown: string): ReadmeBlock[] {
  const lines = markdown.split('\n');
  const blocks: ReadmeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = MARKER.exec(lines[i]!);
    if (!m) continue;
    const fence = lines[i + 1] ?? '';
    if (!/^```(sh|bash|shell)\s*$/.test(fence)) throw new Error(`README.md:${i + 1}: the readme-test marker "${m[1]}" is not followed by a \`\`\`sh block`);
    const end = lines.findIndex((l, k) => k > i + 1 && /^```\s*$/.test(l));
    if (end === -1) throw new Error(`README.md:${i + 2}: unterminated block`);
    blocks.push({ id: m[1]!, server: Boolean(m[2]), text: lines.slice(i + 2, end).join('\n'), line: i + 1 });
  }
  const ids = blocks.map((b) => b.id);
  const dup = ids.find((id, k) => ids.indexOf(id) !== k);
  if (dup) throw new Error(`README.md: two blocks are marked "${dup}"`);
  return blocks;
}

export interface BlockRun {
  output: string;
  /** The commands that failed (a non-zero status), as bash saw them. */
  failed: string[];
}

/** A bash session in `cwd`, with `preamble` run first (shims, exports). */
export class ShellSession {
  private proc: ChildProcess;
  private buffer = '';
  private seq = 0;
  private waiters = new Set<() => void>();
  /** Why the session can run nothing more (a block that never ended holds the shell). */
  private broken: string | null = null;
  readonly servers = new Map<string, { pgid: number; log: string }>();

  constructor(
    private readonly cwd: string,
    env: Record<string, string>,
    preamble: string,
    private readonly logDir: string,
  ) {
    this.proc = spawn('bash', ['--noprofile', '--norc'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const take = (d: Buffer) => {
      this.buffer += d.toString();
      this.waiters.forEach((w) => w());
    };
    this.proc.stdout!.on('data', take);
    this.proc.stderr!.on('data', take);
    this.proc.stdin!.write(`exec 2>&1\nset -o pipefail\n${preamble}\n`);
  }

  private until(marker: string, timeoutMs: number, what: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const i = this.buffer.indexOf(marker);
        if (i === -1) return;
        const out = this.buffer.slice(0, i);
        this.buffer = this.buffer.slice(i + marker.length).replace(/^\n/, '');
        done();
        resolve(out);
      };
      const timer = setTimeout(() => {
        done();
        this.broken = `${what} never ended`;
        reject(new Error(`${what}: no end within ${timeoutMs} ms; output so far:\n${this.buffer}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Runs a block's commands in the session; resolves with what they printed and which commands failed. */
  async run(text: string, timeoutMs = 180_000): Promise<BlockRun> {
    if (this.broken) throw new Error(`the shell session is stuck: ${this.broken}`);
    const n = ++this.seq;
    const failFile = path.join(this.logDir, `failed-${n}`);
    this.proc.stdin!.write(
      // stdin is the session's command stream: a command reading it (npx does) must not eat what follows.
      `trap 'printf "%s\\n" "$BASH_COMMAND" >> ${JSON.stringify(failFile)}' ERR\n{\n${text}\n} < /dev/null\ntrap - ERR\necho; echo "__readme_test_done_${n}__"\n`,
    );
    const output = await this.until(`__readme_test_done_${n}__`, timeoutMs, `block ${n}`);
    const failed = fs.existsSync(failFile) ? fs.readFileSync(failFile, 'utf8').trim().split('\n') : [];
    return { output: output.replace(/\n$/, ''), failed };
  }

  /**
   * Starts a server block in the background in a process group of its own (as a terminal's job), its
   * output to a log; resolves once `ready` appears there.
   */
  async startServer(id: string, text: string, ready: RegExp, timeoutMs = 180_000): Promise<string> {
    const log = path.join(this.logDir, `server-${id}.log`);
    const n = ++this.seq;
    this.proc.stdin!.write(`set -m\n(\n${text}\n) < /dev/null > ${JSON.stringify(log)} 2>&1 &\necho "__readme_test_pid_${n} $!"\nset +m\n`);
    const out = await this.until(`__readme_test_pid_${n} `, 10_000, `server ${id}`);
    const pgid = Number((await this.until('\n', 10_000, `server ${id} pid`)).trim());
    if (out.trim()) throw new Error(`server ${id} printed before starting: ${out}`);
    this.servers.set(id, { pgid, log });
    const t = Date.now();
    for (;;) {
      const text = fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '';
      if (ready.test(text)) return text;
      if (!groupAlive(pgid)) throw new Error(`server ${id} ended before it was ready:\n${text}`);
      if (Date.now() - t > timeoutMs) throw new Error(`server ${id} not ready within ${timeoutMs} ms:\n${text}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Ctrl-C to a server's process group, as a terminal sends it; resolves with its log once every process of it has ended. */
  async stopServer(id: string, timeoutMs = 30_000): Promise<string> {
    const s = this.servers.get(id);
    if (!s) throw new Error(`no server ${id}`);
    process.kill(-s.pgid, 'SIGINT');
    const t = Date.now();
    while (groupAlive(s.pgid)) {
      if (Date.now() - t > timeoutMs) throw new Error(`server ${id} still running ${timeoutMs} ms after Ctrl-C`);
      await new Promise((r) => setTimeout(r, 100));
    }
    this.servers.delete(id);
    return fs.readFileSync(s.log, 'utf8');
  }

  /** Ends the session, and kills whatever a server block left running. */
  close(): void {
    for (const { pgid } of this.servers.values()) if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
    this.proc.stdin!.end();
    this.proc.kill();
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** JSON values printed one after another (curl prints no newline after a body), other text skipped. */
export function jsonValues(text: string): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '{' && text[i] !== '[') continue;
    let depth = 0;
    let inString = false;
    for (let k = i; k < text.length; k++) {
      const c = text[k];
      if (inString) {
        if (c === '\\') k++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        if (--depth === 0) {
          try {
            out.push(JSON.parse(text.slice(i, k + 1)));
            i = k;
          } catch {
            // not JSON after all: go on from the next character
          }
          break;
        }
      }
    }
  }
  return out;
}
