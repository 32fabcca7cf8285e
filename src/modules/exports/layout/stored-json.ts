/**
 * The layout a response's json members are stored on when it is recorded (decision 0022): its survey's
 * json export with no column options. Built once per definition object: a compiled version's definition
 * is never changed, so the layout made from it holds as long as the object does.
 */
import type { QsfDocument } from '../../surveys/definition/qsf.js';
import { type StoredJsonLayout, storedJsonLayout } from '../formats/json-writer.js';
import { exportLayout } from './export-columns.js';

const layouts = new WeakMap<QsfDocument, StoredJsonLayout>();

export function storedJsonLayoutOf(doc: QsfDocument): StoredJsonLayout {
  let layout = layouts.get(doc);
  if (layout === undefined) {
    layout = storedJsonLayout(exportLayout(doc, 'json').columns);
    layouts.set(doc, layout);
  }
  return layout;
}
