/**
 * Issue 12: messages per second for a 10,000-contact distribution sent by the distribution job to a local
 * SMTP server (smtp-server, in this process), beside bare nodemailer sending the same rendered messages
 * through the same pool settings (5 connections, 10 in flight) in the same run. Goal: at least 0.5 of
 * bare. Each send runs in a child process of its own (distribution.child.ts), so the peak RSS printed is
 * that send's. Rounds alternate (bare, Fieldwork, bare, Fieldwork) and the best of each is compared.
 * Memory: the job holds one batch at a time, so its need is flat in the list size; left alone, V8 lets
 * its heap grow the longer a process allocates before it collects, so the peak RSS is measured at 2,000
 * and 10,000 contacts with the old space capped at 128 MB (a send whose memory grew with the list would
 * fail there), beside the uncapped peak of the timed runs.
 */
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { BenchResult } from './run.js';

const BIG = 10_000;
const SMALL = 2_000;
const ROUNDS = 2;

interface Run {
  mode: string;
  count: number;
  seconds: number;
  peakRssMb: number;
}

/** Takes every message and keeps only a count: the server must cost both sides the same, and little. */
async function startSink() {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => {
        received++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () => received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const CAPPED_HEAP = ['--max-old-space-size=128'];

function runChild(
  mode: 'fieldwork' | 'bare',
  count: number,
  url: string,
  flags: string[] = [],
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        ...flags,
        '--import',
        'tsx',
        new URL('./distribution.child.ts', import.meta.url).pathname,
        mode,
        String(count),
        url,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('close', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0) return reject(new Error(`${mode} ${count} exited with ${code}: ${out}`));
      resolve(JSON.parse(line) as Run);
    });
  });
}

export default async function distributionBench(): Promise<BenchResult> {
  const sink = await startSink();
  const lines: string[] = [];
  try {
    const runs: Run[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      runs.push(await runChild('bare', BIG, sink.url));
      runs.push(await runChild('fieldwork', BIG, sink.url));
    }
    const capped = [
      await runChild('fieldwork', SMALL, sink.url, CAPPED_HEAP),
      await runChild('fieldwork', BIG, sink.url, CAPPED_HEAP),
    ];
    const best = (mode: string) =>
      Math.max(...runs.filter((r) => r.mode === mode).map((r) => r.count / r.seconds));
    const bare = best('bare');
    const ours = best('fieldwork');
    const peak = (of: Run[], mode: string) =>
      Math.max(...of.filter((r) => r.mode === mode).map((r) => r.peakRssMb));
    lines.push(`bare nodemailer (pool of 5, 10 in flight): ${bare.toFixed(0)} messages/s (${BIG} messages)`);
    lines.push(`Fieldwork distribution job:                ${ours.toFixed(0)} messages/s (${BIG} contacts)`);
    lines.push(`ratio ${(ours / bare).toFixed(2)} (goal >= 0.5)`);
    const [small, big] = capped as [Run, Run];
    lines.push(
      `peak RSS, old space capped at 128 MB: ${small.peakRssMb.toFixed(0)} MB at ${SMALL} contacts, ${big.peakRssMb.toFixed(0)} MB at ${BIG} (${(big.count / big.seconds).toFixed(0)} messages/s)`,
    );
    lines.push(
      `peak RSS uncapped at ${BIG}: Fieldwork ${peak(runs, 'fieldwork').toFixed(0)} MB, bare ${peak(runs, 'bare').toFixed(0)} MB (bare holds every rendered message)`,
    );
    lines.push(`messages taken by the SMTP server in all: ${sink.received()}`);
  } finally {
    await sink.close();
  }
  return { name: 'distribution: e-mail to 10,000 contacts over SMTP', lines };
}
