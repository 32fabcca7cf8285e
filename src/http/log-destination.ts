import type pino from 'pino';

type SonicBoom = ReturnType<typeof pino.destination>;

export interface LogDestinationOptions {
  /** Lines are handed on once this many characters wait. */
  chunkLength: number;
  /** ... and at least this often. */
  flushMs: number;
}

/**
 * pino's destination for a serving node. Lines are gathered here and handed to sonic-boom in chunks, at
 * least every `flushMs`, on flush and at exit; sonic-boom does the writing (partial writes, EAGAIN, a
 * synchronous flush, dropping past its `maxLength`). Why not sonic-boom's own `minLength`: its `write`
 * measures the byte length of all that is pending on every line, so a line cost about 1 µs at 4 KB pending
 * (a twentieth of `GET /users/{id}`); here a line is appended to a rope, as TextOutput does for exports.
 * Unlike TextOutput, nothing waits for the destination: pino writes synchronously, and a stalled
 * destination makes sonic-boom drop lines instead.
 */
export class LogDestination {
  private pending = '';
  private closed = false;
  private readonly timer: NodeJS.Timeout;
  private readonly flushAtExit = () => {
    try {
      this.flushSync();
    } catch {
      // The process is ending: a destination that never opened (or broke) has nowhere to put the lines.
    }
  };

  constructor(
    readonly sink: SonicBoom,
    private readonly options: LogDestinationOptions,
  ) {
    this.timer = setInterval(() => this.handOver(), options.flushMs).unref();
    process.once('exit', this.flushAtExit);
    sink.once('close', () => {
      this.closed = true;
      clearInterval(this.timer);
      process.removeListener('exit', this.flushAtExit);
    });
  }

  /** After the sink has closed, lines are dropped: kept, they would grow without end. */
  write(line: string): boolean {
    if (this.closed) return false;
    this.pending += line;
    if (this.pending.length >= this.options.chunkLength) this.handOver();
    return true;
  }

  flush(callback?: (error?: Error) => void): void {
    this.handOver();
    this.sink.flush(callback);
  }

  flushSync(): void {
    if (this.closed) return;
    this.handOver();
    this.sink.flushSync();
  }

  end(): void {
    if (this.closed) return;
    this.handOver();
    this.sink.end();
  }

  private handOver(): void {
    if (this.pending.length === 0 || this.closed) return;
    const chunk = this.pending;
    this.pending = '';
    this.sink.write(chunk);
  }
}
