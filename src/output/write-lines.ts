import type { Writable } from 'node:stream';

/**
 * Writes each line of `lines` to `stream`, waiting whenever the stream asks to (a pipe read slowly), and stopping
 * when it is closed (a reader that left, as `| head` does).
 */
export async function writeLines(stream: NodeJS.WritableStream, lines: Iterable<string>): Promise<void> {
  let chunk = '';
  for (const line of lines) {
    chunk += `${line}\n`;
    if (chunk.length < 1 << 16) continue;
    if ((stream as Writable).destroyed) return;
    if (!stream.write(chunk)) await drained(stream);
    chunk = '';
  }
  if (chunk !== '' && !(stream as Writable).destroyed && !stream.write(chunk)) await drained(stream);
}

/** Resolves when `stream` takes more, or will never again (closed). */
function drained(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}
