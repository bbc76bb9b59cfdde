// The package's types follow the OpenAPI document the relay serves
// (GET /api/openapi.json, httpapi/openapi/openapi.json in the repository):
// every field list and code list exported by the package (which the
// compiler ties to the types, src/fields.ts) is compared with it.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import {
  ERROR_CODES, FORWARD_FIELDS, METHODS, NETWORKS, NULLABLE_FIELDS, OPTIONAL_FIELDS, OPTIONAL_VARIANT_FIELDS,
  PREFLIGHT_STATES, SCHEMA_FIELDS, SUBMISSION_FIELDS,
} from "@closerelay/client";
import { startRelay, type TestRelay } from "./support/relay.js";

type Schema = {
  properties?: Record<string, Schema>; required?: string[]; enum?: string[]; oneOf?: Schema[]; const?: string;
  $ref?: string; type?: string | string[];
};
type Doc = { paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }>>; components: { schemas: Record<string, Schema> } };

const sorted = (xs: readonly string[]) => [...xs].sort();

describe("types follow GET /api/openapi.json", () => {
  let relay: TestRelay;
  let doc: Doc;
  before(async () => {
    relay = await startRelay(1);
    const res = await fetch(`${relay.url}/api/openapi.json`);
    assert.equal(res.status, 200);
    doc = (await res.json()) as Doc;
  });
  after(() => relay?.stop());

  it("is the document in the repository", () => {
    const file = JSON.parse(readFileSync(new URL("../../../../httpapi/openapi/openapi.json", import.meta.url), "utf8"));
    assert.deepEqual(doc, file);
  });

  it("names every field of every schema the client reads or writes", () => {
    for (const [name, fields] of Object.entries(SCHEMA_FIELDS)) {
      const schema = doc.components.schemas[name];
      assert.ok(schema, `no schema ${name} in the document`);
      assert.deepEqual(sorted(fields), sorted(Object.keys(schema.properties ?? {})), `schema ${name}`);
    }
  });

  it("knows which fields are optional and which may be null", () => {
    const nullable = (p: Schema) =>
      (Array.isArray(p.type) && p.type.includes("null")) || (p.oneOf ?? []).some((o) => o.type === "null");
    for (const name of Object.keys(SCHEMA_FIELDS)) {
      const schema = doc.components.schemas[name];
      const props = schema.properties ?? {};
      const optional = Object.keys(props).filter((k) => !(schema.required ?? []).includes(k));
      const mayBeNull = Object.keys(props).filter((k) => nullable(props[k]));
      assert.deepEqual(sorted(optional), sorted((OPTIONAL_FIELDS as Record<string, readonly string[]>)[name] ?? []), `${name}: optional fields`);
      assert.deepEqual(sorted(mayBeNull), sorted((NULLABLE_FIELDS as Record<string, readonly string[]>)[name] ?? []), `${name}: nullable fields`);
    }
  });

  it("names every variant of Submission and Forward", () => {
    for (const [name, variants] of [["Submission", SUBMISSION_FIELDS], ["Forward", FORWARD_FIELDS]] as const) {
      const byState: Record<string, string[]> = {};
      const optionalByState: Record<string, string[]> = {};
      for (const v of doc.components.schemas[name].oneOf ?? []) {
        const state = v.properties!.state.const!;
        byState[state] = sorted(Object.keys(v.properties!));
        optionalByState[state] = sorted(Object.keys(v.properties!).filter((k) => !(v.required ?? []).includes(k)));
      }
      const ours: Record<string, string[]> = {};
      const ourOptional: Record<string, string[]> = {};
      for (const [state, fields] of Object.entries(variants)) {
        ours[state] = sorted(fields);
        ourOptional[state] = sorted((OPTIONAL_VARIANT_FIELDS[name] as Record<string, readonly string[]>)[state] ?? []);
      }
      assert.deepEqual(ours, byState, name);
      assert.deepEqual(ourOptional, optionalByState, `${name}: optional fields`);
    }
  });

  it("lists every error code, network and preflight state", () => {
    assert.deepEqual(sorted(ERROR_CODES), sorted(doc.components.schemas.ErrorCode.enum!));
    assert.deepEqual(sorted(NETWORKS), sorted(doc.components.schemas.Network.enum!));
    assert.deepEqual(sorted(PREFLIGHT_STATES), sorted(doc.components.schemas.Preflight.properties!.state.enum!));
  });

  it("knows each method's answer and the codes it can meet", () => {
    const ops = new Map<string, { answer?: string; codes: Set<string> }>();
    for (const methods of Object.values(doc.paths)) {
      for (const op of Object.values(methods)) {
        if (!op.operationId || !op.responses) continue;
        const entry = { answer: undefined as string | undefined, codes: new Set<string>() };
        for (const [status, r] of Object.entries(op.responses)) {
          const schema = r.content?.["application/json"]?.schema;
          if (status === "200") entry.answer = schema?.$ref?.replace("#/components/schemas/", "");
          for (const c of schema?.properties?.code?.enum ?? []) entry.codes.add(c);
        }
        ops.set(op.operationId, entry);
      }
    }
    for (const [method, m] of Object.entries(METHODS)) {
      const op = ops.get(m.operationId);
      assert.ok(op, `${method}: no operation ${m.operationId}`);
      assert.equal(m.answer, op.answer, `${method}: the 200 answer's schema`);
      assert.deepEqual(sorted(m.codes), sorted([...op.codes]), `${method}: the codes of ${m.operationId}`);
    }
  });
});
