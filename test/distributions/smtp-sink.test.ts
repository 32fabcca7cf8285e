import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { expect, it } from 'vitest';
import { startSmtpSink } from './smtp-sink.js';

/** Sends `line` (none: only reads) and resolves with the server's reply, up to its last line. */
async function say(socket: Socket, line?: string): Promise<string> {
  if (line !== undefined) socket.write(`${line}\r\n`);
  for (;;) {
    const [chunk] = (await once(socket, 'data')) as [Buffer];
    const text = chunk.toString();
    if (/^\d{3} /m.test(text)) return text;
  }
}

// The crash tests kill a worker while the sink holds an answer to it. smtp-server reports the broken
// connection inside a transaction as an error of the server; with no listener that error ended the test
// process (ECONNRESET here, an EPIPE in CI). The sink drops the connection and keeps taking mail.
it('keeps taking mail after a client resets its connection while an answer is held', async () => {
  const sink = await startSmtpSink();
  try {
    const dying = connect(sink.port, '127.0.0.1');
    expect(await say(dying)).toMatch(/^220 /);
    expect(await say(dying, 'EHLO test')).toMatch(/^250 /m);
    expect(await say(dying, 'MAIL FROM:<a@example.com>')).toMatch(/^250 /);
    sink.hold();
    dying.write('RCPT TO:<b@example.com>\r\n');
    await expect.poll(() => sink.connections().held).toBe(1);
    dying.resetAndDestroy();
    sink.release();
    await expect.poll(() => sink.connections().open).toBe(0);

    const next = connect(sink.port, '127.0.0.1');
    expect(await say(next)).toMatch(/^220 /);
    expect(await say(next, 'EHLO test')).toMatch(/^250 /m);
    expect(await say(next, 'MAIL FROM:<a@example.com>')).toMatch(/^250 /);
    expect(await say(next, 'RCPT TO:<c@example.com>')).toMatch(/^250 /);
    expect(await say(next, 'DATA')).toMatch(/^354 /);
    expect(await say(next, 'Subject: whole\r\n\r\nall of it\r\n.')).toMatch(/^250 /);
    next.end('QUIT\r\n');
    expect(sink.received.map((mail) => mail.to)).toEqual([['c@example.com']]);
  } finally {
    await sink.close();
  }
});
