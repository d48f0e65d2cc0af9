/**
 * A loopback stand-in for the OpenAI chat-completions wire protocol, for the tests of the `openai` AI
 * provider (test/unit/openai-provider.test.ts) and of jobs billed by tokens (test/unit/jobs-billing.test.ts).
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// ---------------------------------------------------------------------------------------------------
// TEST DOUBLE — a loopback stand-in for the OpenAI chat-completions WIRE PROTOCOL ONLY.
// It is not a model and judges nothing: it records each POST /v1/chat/completions it receives and
// answers with the reply the test scripted for it (a JSON body, a raw body, an HTTP status, or no
// answer at all). Bound to 127.0.0.1 on a free port; never reachable from outside the test process.
// ---------------------------------------------------------------------------------------------------

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: any;
}

export type ScriptedReply =
  | { status?: number; json: unknown }
  | { status?: number; raw: string }
  /** Never answers (until the client gives up or the server closes). */
  | { hang: true }
  /** Built from the request's body when it comes (replies naming what was sent). */
  | { from: (body: any) => ScriptedReply };

type FixedReply = Exclude<ScriptedReply, { from: unknown }>;
const built = (r: ScriptedReply, body: unknown): FixedReply => ('from' in r ? built(r.from(body), body) : r);

export class FakeChatCompletionsServer {
  readonly requests: RecordedRequest[] = [];
  private readonly script: ScriptedReply[] = [];
  private server: Server | null = null;
  /** Requests scripted to hang, ended at reset. */
  private readonly hanging = new Set<ServerResponse>();
  baseURL = '';

  /** Queues the replies of the next requests, in order. */
  reply(...replies: ScriptedReply[]): void {
    this.script.push(...replies);
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = null;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        this.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
          res.writeHead(404, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify({ error: { message: 'not found' } }));
          return;
        }
        const next = built(this.script.shift() ?? { status: 500, json: { error: { message: 'no scripted reply' } } }, body);
        if ('hang' in next) {
          this.hanging.add(res);
          res.on('close', () => this.hanging.delete(res));
          return;
        }
        const payload = 'json' in next ? JSON.stringify(next.json) : next.raw;
        // One request per connection: no idle keep-alive socket outlives a test.
        res.writeHead(next.status ?? 200, { 'content-type': 'application/json', connection: 'close' }).end(payload);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.baseURL = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/v1`;
  }

  reset(): void {
    this.requests.length = 0;
    this.script.length = 0;
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** A chat.completion body whose message content is `content` (an object is sent as its JSON text). */
export function completion(
  content: unknown,
  usage: { prompt_tokens: number; completion_tokens: number } | null = { prompt_tokens: 321, completion_tokens: 45 },
) {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'test-model',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: typeof content === 'string' ? content : JSON.stringify(content), refusal: null },
        finish_reason: 'stop',
        logprobs: null,
      },
    ],
    ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
  };
}
