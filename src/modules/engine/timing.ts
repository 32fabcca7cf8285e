import type { FormFields } from './answers.js';
import type { SessionState } from './session-state.js';

/** Timing questions: seconds to the first and last click and to the submit, and the click count. */
export function timingAnswers(
  questions: { id: string; kind: string }[],
  form: FormFields,
  state: SessionState,
  now: Date,
): Record<string, Record<string, string[]>> {
  const seconds = (name: string) => {
    const value = Number(form[name]?.[0] ?? '0');
    return String(Number.isFinite(value) && value >= 0 ? Math.round(value * 1000) / 1000 : 0);
  };
  const submit = Math.max(0, (now.getTime() - new Date(state.shownAt).getTime()) / 1000);
  const out: Record<string, Record<string, string[]>> = {};
  for (const q of questions.filter((x) => x.kind === 'timing')) {
    out[q.id] = {
      [`${q.id}_FIRST_CLICK`]: [seconds('_fw_first_click')],
      [`${q.id}_LAST_CLICK`]: [seconds('_fw_last_click')],
      [`${q.id}_PAGE_SUBMIT`]: [String(Math.round(submit * 1000) / 1000)],
      [`${q.id}_CLICK_COUNT`]: [String(Math.trunc(Number(seconds('_fw_click_count'))))],
    };
  }
  return out;
}
