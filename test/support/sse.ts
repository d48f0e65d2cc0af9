/** Server-Sent Events as the API writes them (one `id`, `event` and JSON `data` line a frame), read from a finished stream's text; comment lines are skipped. */
export interface SseFrame {
  id: number;
  event: string;
  data: unknown;
}

export function parseSse(text: string): SseFrame[] {
  return text
    .split('\n\n')
    .filter((f) => f.trim() !== '' && !f.startsWith(':'))
    .map((f) => {
      const lines = Object.fromEntries(f.split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
      return { id: Number(lines.id), event: lines.event!, data: JSON.parse(lines.data!) as unknown };
    });
}
