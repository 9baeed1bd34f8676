import type { SendCounters } from './send.js';

// Progress of the sending on stderr: a bar redrawn in place on a terminal, a plain line every few seconds
// elsewhere (CI logs). It reads the shared counters on a timer, so sending pays nothing per record.

export interface ProgressOptions {
  stream: NodeJS.WritableStream & { columns?: number };
  /** Redraw a bar in place (a terminal), or print plain lines. */
  animate: boolean;
  total: number;
  counters: SendCounters;
  /** Milliseconds between plain lines (default 5 s). */
  plainEveryMs?: number;
  now?: () => number;
}

/** A started progress display; `stop` clears the bar. */
export interface Progress {
  stop(): void;
}

/**
 * One progress line: sent/total, rate, ETA, and the records failed and uncertain so far, in the words and the
 * counts of the summary that follows.
 */
export function progressLine(total: number, counters: SendCounters, elapsedMs: number, barWidth = 0): string {
  const { done, failed, uncertain } = counters;
  const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0;
  const remaining = total - done;
  const eta = rate > 0 ? formatDuration((remaining / rate) * 1000) : '?';
  const filled = total > 0 ? Math.round((done / total) * barWidth) : 0;
  const bar = barWidth > 0 ? `[${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}] ` : '';
  const percent = total > 0 ? Math.floor((done / total) * 100) : 100;
  return `${bar}${done}/${total} sent (${percent}%)  ${rate.toFixed(rate < 10 ? 1 : 0)}/s  ETA ${eta}  failed ${failed}  uncertain ${uncertain}`;
}

/** 75 s -> "1m15s". */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/** Starts showing progress until `stop`. */
export function startProgress(options: ProgressOptions): Progress {
  const now = options.now ?? Date.now;
  const started = now();
  const { stream, total, counters } = options;
  if (options.animate) {
    const draw = () => {
      const width = Math.max(10, Math.min(30, (stream.columns ?? 80) - 60));
      stream.write(`\r\u001b[2K${progressLine(total, counters, now() - started, width)}`);
    };
    draw();
    const timer = setInterval(draw, 100);
    timer.unref();
    return {
      stop() {
        clearInterval(timer);
        stream.write('\r\u001b[2K');
      },
    };
  }
  const timer = setInterval(
    () => stream.write(`Sending: ${progressLine(total, counters, now() - started)}\n`),
    options.plainEveryMs ?? 5_000,
  );
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
