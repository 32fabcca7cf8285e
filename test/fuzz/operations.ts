/** A JSON schema as the OpenAPI document writes it (only the keywords the fuzzer reads are named). */
export interface JsonSchema {
  type?: string | string[];
  nullable?: boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  maxProperties?: number;
  minProperties?: number;
  patternProperties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonSchema;
}

/** One method and path of the OpenAPI document, with what it takes. */
export interface Operation {
  /** `POST /API/v3/users/{userId}/apitoken`: names the operation in test titles and reports. */
  key: string;
  method: string;
  /** The path template, `{name}` for each path parameter. */
  path: string;
  pathParams: string[];
  query: Parameter[];
  /** The request body's schema by content type; empty when the call takes no body. */
  bodies: Record<string, JsonSchema>;
}

interface OpenApiOperation {
  parameters?: (Parameter & { required?: boolean })[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

interface OpenApiDocument {
  paths?: Record<string, Record<string, OpenApiOperation>>;
}

/** Every operation of the document, in its order. */
export function operationsOf(document: unknown): Operation[] {
  const paths = (document as OpenApiDocument).paths ?? {};
  const operations: Operation[] = [];
  for (const [path, byMethod] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(byMethod)) {
      const parameters = (operation.parameters ?? []).map((p) => ({ ...p, required: p.required ?? false }));
      const bodies: Record<string, JsonSchema> = {};
      for (const [type, content] of Object.entries(operation.requestBody?.content ?? {}))
        bodies[type] = content.schema ?? {};
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string),
        query: parameters.filter((p) => p.in === 'query'),
        bodies,
      });
    }
  }
  return operations;
}
