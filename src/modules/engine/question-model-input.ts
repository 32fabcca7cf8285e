/**
 * The question model's settings of sliders and file uploads (question-model.ts), from a QSF question's
 * `Configuration` as the real files write it (fixtures/qsf/qt-many-types.qsf, psych251-porter.qsf):
 * `CSSliderMin`, `CSSliderMax`, `GridLines`, `SnapToGrid`, `NumDecimals`, `ShowValue`, `NotApplicable`,
 * `StarCount`, `StarType`, and the question's `Labels`.
 */
import { entries, type Json, num, str, truthy } from './qsf-reading.js';
import type { Question, SliderSettings } from './survey-model.js';

export function toSlider(selector: string, config: Json, labels: Json): SliderSettings {
  const decimals = Math.max(0, Math.min(6, Math.trunc(num(config?.NumDecimals, 0))));
  const common = {
    decimals,
    labels: entries(labels).map(([, label]) => str(label?.Display)),
    showValue: config?.ShowValue === undefined ? true : truthy(config.ShowValue),
    notApplicable: truthy(config?.NotApplicable),
  };
  if (selector === 'STAR') {
    // Stars are counted from one; `StarType: half` takes half stars.
    const max = Math.max(1, Math.trunc(num(config?.StarCount, 5)));
    const step = str(config?.StarType) === 'half' ? 0.5 : 1;
    return { ...common, style: 'star', min: 0, max, step, gridLines: 0, decimals: step < 1 ? 1 : 0 };
  }
  const min = num(config?.CSSliderMin, 0);
  const max = Math.max(num(config?.CSSliderMax, min + 100), min);
  const gridLines = Math.max(0, Math.trunc(num(config?.GridLines, 0)));
  const unit = 10 ** -decimals;
  const grid = gridLines > 0 ? (max - min) / gridLines : 0;
  const step = truthy(config?.SnapToGrid) && grid > 0 ? grid : unit;
  return { ...common, style: selector === 'HBAR' ? 'bar' : 'slider', min, max, step, gridLines };
}

/** A file upload's limits: 16 MB and any type unless the question says less. */
export const DEFAULT_UPLOAD_BYTES = 16 * 1024 * 1024;

/**
 * `MaxFileSize` (in MB) and `AllowedFileTypes` (name endings, a list or a comma-separated string) are our
 * reading: no real file we have restricts an upload, so the keys are not confirmed.
 */
export function toUpload(config: Json): NonNullable<Question['upload']> {
  const mb = num(config?.MaxFileSize, 0);
  const maxBytes =
    mb > 0 ? Math.min(Math.round(mb * 1024 * 1024), DEFAULT_UPLOAD_BYTES) : DEFAULT_UPLOAD_BYTES;
  const raw = config?.AllowedFileTypes;
  const list = Array.isArray(raw) ? raw.map((t) => str(t)) : str(raw).split(',');
  const extensions = list
    .map((t) => t.trim().replace(/^\./, '').toLowerCase())
    .filter((t) => /^[a-z0-9]{1,10}$/.test(t));
  return { maxBytes, extensions };
}
