import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';

/** One message the sink took: its envelope and raw bytes. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: Buffer;
  /** The Message-ID header. */
  messageId: string;
  receivedAt: number;
}

/** How to answer a recipient (the n-th time it is offered, from 0): undefined accepts it. */
export type RecipientRule = (address: string, n: number) => { code: number; message: string } | undefined;

export interface SmtpSink {
  url: string;
  port: number;
  received: ReceivedMail[];
  /** How many times each recipient was offered (RCPT TO), accepted or not. */
  offered: Map<string, number>;
  /** Messages taken per recipient address. */
  countTo(address: string): number;
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  /** Holds every command's answer from now on (MAIL, RCPT and the end of DATA): the clients wait. */
  hold(): void;
  /** Answers what was held and holds nothing more. */
  release(): void;
  /**
   * Clients connected now; how many wait on a held answer; and how many have a recipient accepted and
   * their message not yet complete (a client among these may be about to finish a message).
   */
  connections(): { open: number; held: number; inFlight: number };
  parse(mail: ReceivedMail): Promise<ParsedMail>;
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 (smtp-server), in the test process, that records every message it takes. */
export async function startSmtpSink(
  rule: RecipientRule = () => undefined,
  onMessage?: (count: number) => void,
): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const offered = new Map<string, number>();
  const waiters = new Set<() => void>();
  let holding = false;
  const held: (() => void)[] = [];
  const heldSessions = new Set<string>();
  const open = new Set<string>();
  const inFlight = new Set<string>();
  const maybeHold = (session: SMTPServerSession, answer: () => void) => {
    if (!holding) return answer();
    heldSessions.add(session.id);
    held.push(answer);
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    socketTimeout: 120_000,
    onConnect(session, callback) {
      open.add(session.id);
      callback();
    },
    onClose(session) {
      open.delete(session.id);
      heldSessions.delete(session.id);
      inFlight.delete(session.id);
    },
    onMailFrom(_address, session, callback) {
      maybeHold(session, () => callback());
    },
    onRcptTo(address, session, callback) {
      const n = offered.get(address.address) ?? 0;
      offered.set(address.address, n + 1);
      const refusal = rule(address.address, n);
      maybeHold(session, () => {
        if (!refusal) {
          inFlight.add(session.id);
          return callback();
        }
        const error = new Error(refusal.message) as Error & { responseCode: number };
        error.responseCode = refusal.code;
        callback(error);
      });
    },
    onData(stream: SMTPServerDataStream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', () => inFlight.delete(session.id));
      stream.on('end', () => {
        inFlight.delete(session.id);
        const raw = Buffer.concat(chunks);
        const header = raw
          .subarray(0, raw.indexOf('\r\n\r\n'))
          .toString('utf8')
          .replace(/\r\n[ \t]+/g, ' ');
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          messageId: /^message-id:\s*(.+)$/im.exec(header)?.[1]?.trim() ?? '',
          receivedAt: Date.now(),
        });
        onMessage?.(received.length);
        for (const wake of waiters) wake();
        maybeHold(session, () => callback());
      });
    },
  });
  // A client that dies in the middle of a message (the crash tests kill the worker that sends) breaks its
  // connection: smtp-server reports that as an error of the server, which drops the connection and carries
  // on, as a real one does. Errors of the server itself (no client's address on them) still surface.
  server.on('error', (error: Error & { remoteAddress?: string }) => {
    if (error.remoteAddress === undefined) throw error;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    offered,
    countTo: (address) => received.filter((m) => m.to.includes(address)).length,
    waitFor: (count, timeoutMs = 30_000) =>
      new Promise<void>((resolve, reject) => {
        if (received.length >= count) return resolve();
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`SMTP sink: ${received.length} of ${count} messages within ${timeoutMs} ms`));
        }, timeoutMs);
        const check = () => {
          if (received.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      }),
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const answer of held.splice(0)) answer();
    },
    connections: () => ({
      open: open.size,
      held: [...heldSessions].filter((id) => open.has(id)).length,
      inFlight: inFlight.size,
    }),
    parse: (mail) => simpleParser(mail.raw),
    close: async () => {
      holding = false;
      for (const answer of held.splice(0)) answer();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
