/**
 * Where a distribution's messages go: an SMTP server through nodemailer's pooled transport
 * (`--smtp-url`), or, with none configured, `.eml` files in the BlobStore. Both take a `commit` step
 * that records the message as sent; when it runs decides what a crash can do (decision 0009):
 *
 * - SMTP: the message is held back before its final dot. `commit` runs once the server has accepted the
 *   envelope (recipient and DATA) and is reading the message; only when it has recorded the message as
 *   sent does the final dot go out. A crash before the record leaves a message the server throws away
 *   (the connection drops mid-DATA), so it can be sent again; only a crash in the microseconds between
 *   the record and the dot's write loses one. No message is ever sent twice.
 * - `.eml`: the file is saved whole under a name of its own (`<org>/mail/<EMD>/<CID>.eml`) and then
 *   recorded: a crash between the two writes the same file again, never a second one.
 */
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import type { BlobStore } from '../../files/blob-store.js';

export interface OutgoingMail {
  /** The BlobStore key of the message's `.eml` file, when no SMTP server is configured. */
  fileKey: string;
  message: SendMailOptions & { messageId: string };
}

export type SendOutcome =
  | { kind: 'sent'; response: string }
  /** `commit` said no (this attempt lost the job): nothing was sent. */
  | { kind: 'abandoned' }
  /** The server refused: at the envelope (the recipient) or the message (after its data). */
  | { kind: 'refused'; code: number; response: string; stage: 'envelope' | 'message' }
  /** No answer (connection refused or lost, timeout); `committed` when it came after the record. */
  | { kind: 'error'; message: string; committed: boolean };

export interface MailSender {
  /** For the start-up line: where mail goes. */
  readonly description: string;
  send(mail: OutgoingMail, commit: () => Promise<boolean>): Promise<SendOutcome>;
  close(): void;
}

export interface PoolSettings {
  maxConnections: number;
  maxMessages: number;
}

/** Five connections, each reused for many messages: the pool the benchmark compares against bare nodemailer. */
export const POOL_SETTINGS: PoolSettings = { maxConnections: 5, maxMessages: 1000 };

export function createMailSender(smtpUrl: string | undefined, blobs: BlobStore): MailSender {
  return smtpUrl ? new SmtpSender(smtpUrl, POOL_SETTINGS) : new EmlSender(blobs);
}

/** The SMTP URL without its credentials, for logs and the start-up line. */
export function describeSmtpUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}`;
}

/** Passes the message through, but holds its end (and so the final dot) until `open()`. */
class Gate extends Transform {
  private released = false;
  private flushed: TransformCallback | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.released) callback();
    else this.flushed = callback;
  }

  open(): void {
    this.released = true;
    const flushed = this.flushed;
    this.flushed = undefined;
    flushed?.();
  }

  attach(input: Readable): this {
    input.on('error', (error) => this.destroy(error));
    input.pipe(this);
    return this;
  }
}

class AbandonedError extends Error {}

export class SmtpSender implements MailSender {
  readonly description: string;
  private readonly transport: Transporter;
  private readonly gates = new Map<string, Gate>();

  constructor(url: string, pool: PoolSettings) {
    this.description = `SMTP to ${describeSmtpUrl(url)}`;
    this.transport = nodemailer.createTransport({ url, pool: true, ...pool });
    // The last step before the transport: the gate becomes the stream the connection reads the message from.
    this.transport.use('stream', (mail, done) => {
      const gate = this.gates.get(String(mail.data.messageId));
      if (gate) mail.message.processFunc((input) => gate.attach(input));
      done();
    });
  }

  async send(mail: OutgoingMail, commit: () => Promise<boolean>): Promise<SendOutcome> {
    const gate = new Gate();
    const id = mail.message.messageId;
    this.gates.set(id, gate);
    let committed = false;
    // The connection pipes the message only once the server took the envelope and answered DATA.
    gate.once('resume', () => {
      commit().then(
        (ok) => {
          committed = ok;
          if (ok) gate.open();
          else gate.destroy(new AbandonedError('the record was refused'));
        },
        (error: unknown) => gate.destroy(error as Error),
      );
    });
    try {
      const info = await this.transport.sendMail(mail.message);
      return { kind: 'sent', response: String(info.response ?? '') };
    } catch (error) {
      if (!committed && containsAbandoned(error)) return { kind: 'abandoned' };
      return smtpOutcome(error, committed);
    } finally {
      this.gates.delete(id);
    }
  }

  close(): void {
    this.transport.close();
  }
}

function containsAbandoned(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause)
    if (e instanceof AbandonedError || String((e as Error).message ?? '').includes('the record was refused'))
      return true;
  return false;
}

interface SmtpError {
  message?: string;
  code?: string;
  command?: string;
  responseCode?: number;
  response?: string;
  rejectedErrors?: SmtpError[];
}

/** nodemailer's error as an outcome: a refusal with the server's code, or no answer at all. */
export function smtpOutcome(error: unknown, committed: boolean): SendOutcome {
  const e = (error ?? {}) as SmtpError;
  const refusal = e.rejectedErrors?.[0] ?? e;
  const code = refusal.responseCode;
  if (typeof code === 'number' && code >= 400) {
    const stage = committed || refusal.command === 'DATA' ? 'message' : 'envelope';
    return { kind: 'refused', code, response: String(refusal.response ?? refusal.message ?? ''), stage };
  }
  return { kind: 'error', message: String(e.message ?? error), committed };
}

/** The embedded default: each message as an `.eml` file in the BlobStore. */
export class EmlSender implements MailSender {
  readonly description = '.eml files in the BlobStore under <organization>/mail/<distribution>/';
  private readonly transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: false,
    newline: 'windows',
  });

  constructor(private readonly blobs: BlobStore) {}

  async send(mail: OutgoingMail, commit: () => Promise<boolean>): Promise<SendOutcome> {
    try {
      const info = await this.transport.sendMail(mail.message);
      await this.blobs.save(mail.fileKey, info.message as Readable);
    } catch (error) {
      return { kind: 'error', message: String((error as Error)?.message ?? error), committed: false };
    }
    return (await commit()) ? { kind: 'sent', response: `saved as ${mail.fileKey}` } : { kind: 'abandoned' };
  }

  close(): void {
    this.transport.close();
  }
}
