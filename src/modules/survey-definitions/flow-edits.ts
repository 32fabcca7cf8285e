/**
 * Changes to the survey flow, its embedded data, quotas and options (the definitions API), on the
 * normalised QSF document. Pure, as definition-edits.ts. Flow ids are the real platform's `FL_<n>`, and
 * the root's `Properties.Count` stays the highest n, as the real platform keeps it.
 */
import { ApiError } from '../../http/errors.js';
import { randomAlphanumeric } from '../../http/ids.js';
import { isObject } from '../surveys/definition/is-object.js';
import type { QsfDocument, QsfEmbeddedField, QsfFlowNode, QsfQuota } from '../surveys/definition/qsf.js';
import { type Json, surveyElement } from './qsf-parts.js';

export interface FlowRoot extends QsfFlowNode {
  Flow: QsfFlowNode[];
  Properties?: Json;
}

const flowNotFound = (flowId: string) =>
  ApiError.of('FW_DEF_3', `Flow element ${flowId} not found in the survey flow.`);

/** The root of the survey flow (the FL element's payload), made when the document has none. */
export function flowRoot(document: QsfDocument): FlowRoot {
  let element = document.SurveyElements.find((e) => e.Element === 'FL');
  if (!element) {
    element = surveyElement(document, 'FL', 'Survey Flow', null);
    document.SurveyElements.push(element);
  }
  const root = isObject(element.Payload) ? element.Payload : {};
  const flow = Array.isArray(root.Flow) ? root.Flow : [];
  element.Payload = {
    ...root,
    Type: 'Root',
    FlowID: typeof root.FlowID === 'string' ? root.FlowID : 'FL_1',
    Flow: flow,
  };
  return element.Payload as FlowRoot;
}

/** Every node of the flow, the root first, depth first. */
function nodesOf(root: QsfFlowNode): QsfFlowNode[] {
  const out: QsfFlowNode[] = [];
  const stack = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    out.push(node);
    for (const child of [...(node.Flow ?? [])].reverse()) if (isObject(child)) stack.push(child);
  }
  return out;
}

const flowNumber = (flowId: unknown) => {
  const match = typeof flowId === 'string' ? /^FL_(\d+)$/.exec(flowId) : null;
  return match ? Number(match[1]) : 0;
};

/**
 * Gives every node under `root` a flow id of its own: ids already there and not taken before are kept,
 * the others (none, or a duplicate) get the next `FL_<n>`. Then `Properties.Count`, the highest n.
 */
export function numberFlow(root: FlowRoot): void {
  const nodes = nodesOf(root);
  let top = Math.max(1, ...nodes.map((n) => flowNumber(n.FlowID)));
  const taken = new Set<string>();
  for (const node of nodes) {
    if (typeof node.FlowID !== 'string' || node.FlowID === '' || taken.has(node.FlowID))
      node.FlowID = `FL_${++top}`;
    taken.add(node.FlowID);
  }
  root.Properties = { ...(isObject(root.Properties) ? root.Properties : {}), Count: top };
}

/** Appends a node to the end of the flow with the next flow id; returns the id. */
export function appendFlowNode(root: FlowRoot, node: Omit<QsfFlowNode, 'FlowID'>): string {
  const added = { ...node, FlowID: '' } as QsfFlowNode;
  root.Flow.push(added);
  numberFlow(root);
  return added.FlowID;
}

/** Takes out, at every depth, the nodes `matches` picks. */
export function removeFlowNodes(root: QsfFlowNode, matches: (node: QsfFlowNode) => boolean): void {
  for (const node of nodesOf(root)) if (node.Flow) node.Flow = node.Flow.filter((child) => !matches(child));
}

function flowChildren(value: unknown, field: string): QsfFlowNode[] {
  if (!Array.isArray(value)) throw ApiError.invalid(field, 'must be an array of flow elements');
  return value.map((node, i) => {
    if (!isObject(node) || typeof node.Type !== 'string' || node.Type === '')
      throw ApiError.invalid(`${field}[${i}].Type`, 'is required (Block, Standard, Branch, EmbeddedData, …)');
    return node as QsfFlowNode;
  });
}

/** `PUT …/flow`: the whole flow. Blocks it names that the survey lacks are left out, with a notice. */
export function replaceFlow(document: QsfDocument, body: Json): void {
  const root = flowRoot(document);
  const flow = flowChildren(body.Flow, 'Flow');
  const element = document.SurveyElements.find((e) => e.Element === 'FL');
  const next: FlowRoot = { ...body, Type: 'Root', FlowID: root.FlowID, Flow: flow };
  numberFlow(next);
  if (element) element.Payload = next;
}

/**
 * `PUT …/flow/{flowId}`: an object replaces that element (it keeps its flow id); an array replaces its
 * children (the form some clients send). The root's id replaces the whole flow.
 */
export function replaceFlowElement(document: QsfDocument, flowId: string, body: unknown): void {
  const root = flowRoot(document);
  const node = nodesOf(root).find((n) => n.FlowID === flowId);
  if (!node) throw flowNotFound(flowId);
  if (Array.isArray(body)) {
    node.Flow = flowChildren(body, 'body');
  } else if (node === root) {
    if (!isObject(body)) throw ApiError.invalid('body', 'must be a flow element or an array of them');
    replaceFlow(document, body);
    return;
  } else {
    if (!isObject(body) || typeof body.Type !== 'string' || body.Type === '')
      throw ApiError.invalid('Type', 'is required (Block, Standard, Branch, EmbeddedData, …)');
    for (const key of Object.keys(node)) delete node[key];
    Object.assign(node, body, { FlowID: flowId });
  }
  numberFlow(root);
}

const VARIABLE_TYPES: Record<string, string> = {
  text: 'String',
  number: 'Number',
  date: 'Date',
  multiValueText: 'MultiValueString',
};

/**
 * `POST …/embeddeddatafields` `{embeddedDataFields: [{key, type?, value?}]}`: declared in the embedded
 * data element at the start of the flow (made when there is none), as the real service does. A field
 * without a value takes the link's URL parameter (or contact field) of the same name; a field already
 * there is changed.
 */
export function addEmbeddedDataFields(document: QsfDocument, body: Json): void {
  const fields = body.embeddedDataFields;
  if (!Array.isArray(fields) || fields.length === 0)
    throw ApiError.invalid('embeddedDataFields', 'must be a non-empty array of {key, type?, value?}');
  const root = flowRoot(document);
  let node = root.Flow[0]?.Type === 'EmbeddedData' ? root.Flow[0] : undefined;
  if (!node) {
    node = { Type: 'EmbeddedData', FlowID: '', EmbeddedData: [] };
    root.Flow.unshift(node);
    numberFlow(root);
  }
  node.EmbeddedData ??= [];
  const declared = node.EmbeddedData;
  fields.forEach((raw, i) => {
    const at = `embeddedDataFields[${i}]`;
    if (!isObject(raw) || typeof raw.key !== 'string' || raw.key.trim() === '')
      throw ApiError.invalid(`${at}.key`, 'is required (a non-empty string)');
    if (raw.value !== undefined && typeof raw.value !== 'string' && typeof raw.value !== 'number')
      throw ApiError.invalid(`${at}.value`, 'must be a string');
    const type = typeof raw.type === 'string' ? raw.type : 'text';
    const field: QsfEmbeddedField = {
      Description: raw.key,
      Type: raw.value === undefined ? 'Recipient' : 'Custom',
      Field: raw.key,
      VariableType: VARIABLE_TYPES[type] ?? 'String',
      DataVisibility: [],
      AnalyzeText: false,
      ...(raw.value === undefined ? {} : { Value: String(raw.value) }),
    };
    const index = declared.findIndex((f) => f.Field === raw.key);
    if (index >= 0) declared[index] = field;
    else declared.push(field);
  });
}

export const quotasOfDocument = (document: QsfDocument): QsfQuota[] =>
  document.SurveyElements.filter((e) => e.Element === 'QO').map((e) => e.Payload as QsfQuota);

/**
 * `POST …/quotas`: a quota `{Name, Occurrences, Logic?, QuotaAction?, …}` as the QSF writes one; counted
 * from 0 once published. Returns its id (`QO_…`).
 */
export function createQuota(document: QsfDocument, body: Json): string {
  if (typeof body.Name !== 'string' || body.Name.trim() === '')
    throw ApiError.invalid('Name', 'is required (a non-empty string)');
  const occurrences = Number(body.Occurrences);
  if (!Number.isInteger(occurrences) || occurrences < 0)
    throw ApiError.invalid('Occurrences', 'is required (a whole number, 0 or more)');
  if (body.Logic !== undefined && body.Logic !== null && !isObject(body.Logic))
    throw ApiError.invalid('Logic', 'must be a BooleanExpression object or null');
  const id = `QO_${randomAlphanumeric(15)}`;
  const payload = {
    LogicType: 'Simple',
    QuotaAction: 'EndCurrentSurvey',
    ...body,
    ID: id,
    Name: body.Name,
    Occurrences: occurrences,
    Logic: body.Logic ?? null,
  };
  const element = surveyElement(document, 'QO', id, payload);
  element.SecondaryAttribute = body.Name;
  document.SurveyElements.push(element);
  return id;
}

/** `PUT …/options`: the survey options (the SO element) replaced by the body. */
export function replaceOptions(document: QsfDocument, body: Json): void {
  const element = document.SurveyElements.find((e) => e.Element === 'SO');
  if (element) element.Payload = body;
  else document.SurveyElements.push(surveyElement(document, 'SO', 'Survey Options', body));
}
