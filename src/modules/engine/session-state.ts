import { fromJson, toJson } from '../../db/json.js';
import type { Answers } from './flow.js';

/** What a session keeps between pages: enough to walk the flow again and land on the same page. */
export interface SessionState {
  /** Seeds every randomisation of the session (random.ts). */
  seed: number;
  /** Embedded data known at the start: URL parameters, later the contact's fields. */
  given: Record<string, string>;
  answers: Answers;
  /** Index of the current page in the walked path. */
  position: number;
  /** The page last shown and when it was first shown (timing questions, stale submissions). */
  shownKey: string;
  shownAt: string;
  /** The language chosen when the session started (languages.ts); absent: the survey's base language. */
  language?: string;
  /** "Evenly present" elements' items given when the session started (even-presentation.ts). */
  evenly?: Record<string, string[]>;
}

export const parseState = (text: string): SessionState => fromJson<SessionState>(text);
export const serializeState = (state: SessionState): string => toJson(state);
