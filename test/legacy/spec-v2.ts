import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { requireShared, SHARED } from '../conformance/shared.js';

/**
 * What the spec says about version 2 calls, read from ../shared/spec/survey-api-v3.md at test time, so a
 * command the spec names or describes and the table lacks fails the test rather than being forgotten.
 */

export interface Described {
  /** Where the spec says it: `9.5`, `4.4`, `4.6`. */
  where: string;
  /** The spec's words for the call (`survey activation`), matched against the table's `specTerms`. */
  term: string;
  /** Text the answer must carry: the v3 call, or the field the data is now read from. */
  expected: string[];
}

function specText(): string {
  requireShared();
  return readFileSync(join(SHARED, 'spec/survey-api-v3.md'), 'utf8');
}

/** From a heading (`### 4.4`, `## 9.`) to the next heading of that level or higher. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n${heading}`);
  if (start < 0) throw new Error(`the spec has no section ${heading}`);
  const level = heading.split(' ')[0] as string;
  const rest = text.slice(start + 1);
  const next = rest.slice(1).search(new RegExp(`\\n#{1,${level.length}} `));
  return next < 0 ? rest : rest.slice(0, next + 1);
}

/** A numbered rule of a section: the line `n. …`. */
function rule(sectionText: string, n: number): string {
  const line = sectionText.split('\n').find((l) => l.startsWith(`${n}. `));
  if (!line) throw new Error(`the spec section has no rule ${n}`);
  return line.slice(`${n}. `.length);
}

const backticked = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);

export interface Obsoleted {
  name: string;
  /** An endpoint named as its later replacement (`optedOutContacts`), if the spec gives one. */
  replacedLaterBy?: string;
}

/** Spec 9.4: the commands with no version 3 equivalent, and those marked not implemented. */
export function obsoletedCommands(): Obsoleted[] {
  const line = rule(section(specText(), '## 9.'), 4);
  const [obsoleted, notImplemented] = line.split('Also marked not implemented:');
  const names = (obsoleted?.split('(obsoleted):')[1] ?? '')
    .replace(/\.\s*$/, '')
    .split(',')
    .map((name) => ({ name: name.trim() }));
  const later = (notImplemented ?? '').split(/,\s*(?:and\s+)?/).map((part) => {
    const replacedLaterBy = /replaced later by the (\w+) endpoint/.exec(part)?.[1];
    const name = /[a-z]\w+/.exec(part)?.[0] ?? '';
    return replacedLaterBy ? { name, replacedLaterBy } : { name };
  });
  return [...names, ...later];
}

/** Spec 9.5: the version 2 calls merged into single version 3 calls, clause by clause. */
function merged(text: string): Described[] {
  const line = rule(section(text, '## 9.'), 5);
  const clauses = line
    .slice(line.indexOf(': ') + 2)
    .replace(/\.\s*$/, '')
    .split('; ');
  return clauses.flatMap((clause) => {
    const m = /^(?:the )?(.+?) (?:are all|is replaced by|are read from) (.+)$/.exec(clause);
    if (!m) throw new Error(`spec 9.5: cannot read the clause "${clause}"`);
    const target = m[2] as string;
    // A reference to another section (`the three-step export (4.5)`) expects that section's call.
    const referenced = [...target.matchAll(/\((\d\.\d)\)/g)].flatMap((r) =>
      backticked(section(text, `### ${r[1]}`)).filter((code) => /^(GET|POST|PUT|DELETE) \//.test(code)),
    );
    const expected = [...backticked(target), ...referenced];
    const described = (m[1] as string).replace(/^version 2 /, '');
    return described.split(/, | and /).map((term) => ({ where: '9.5', term, expected }));
  });
}

/** Spec 4.4: the version 2 calls the get-user call replaces. */
function replacedByGetUser(text: string): Described[] {
  const part = section(text, '### 4.4');
  const row = part.split('\n').find((l) => /^\| GET \| \/v3\/users\/<\w+> \|/.test(l));
  const call = row
    ?.split('|')
    .slice(1, 3)
    .map((cell) => cell.trim())
    .join(' ');
  const list = /replaces several version 2 calls \(([^)]+)\)/.exec(part)?.[1];
  if (!call || !list) throw new Error('spec 4.4: cannot find the get-user call and what it replaces');
  return list.split(', ').map((term) => ({ where: '4.4', term, expected: [call] }));
}

/** Spec 4.6: the sends the distribution call stands for. */
function distributionSends(text: string): Described[] {
  const part = section(text, '### 4.6');
  const m = /^\| POST \| (\/v3\/distributions\/<\w+>) \(([^)]+)\) \|$/m.exec(part);
  if (!m) throw new Error('spec 4.6: cannot find the distribution call');
  return (m[2] as string).split(', ').map((term) => ({ where: '4.6', term, expected: [`POST ${m[1]}`] }));
}

/** Every version 2 call the spec describes as replaced by a version 3 call. */
export function describedCommands(): Described[] {
  const text = specText();
  return [...merged(text), ...replacedByGetUser(text), ...distributionSends(text)];
}

/** The spec's endpoint list (../shared/spec/endpoints.tsv) as `METHOD /v3/path` with `<param>` placeholders. */
export function specEndpoints(): Set<string> {
  requireShared();
  return new Set(
    readFileSync(join(SHARED, 'spec/endpoints.tsv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t'))
      .map(([method, path]) => `${method} ${(path ?? '').replace(/\{(\w+)\}/g, '<$1>')}`),
  );
}
