/**
 * The merged /v2/openapi.json as published by a running platform: valid against the OpenAPI 3.1
 * schema (checked by an independent validator library), every operation named, the error bodies
 * distinguishable, and links from each create operation to the reads that take its ids. That every
 * answer of the HTTP suites matches it is checked by ApiClient on each request (openapi-conformance).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OpenApiConformance } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';

jest.setTimeout(60_000);

let platform: TestPlatform;
let doc: { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, any> } };

beforeAll(async () => {
  platform = await startTestPlatform();
  doc = (await (await fetch(`${platform.baseUrl}/openapi.json`)).json()) as typeof doc;
});
afterAll(() => platform?.stop());

const operations = () =>
  Object.entries(doc.paths).flatMap(([p, item]) =>
    Object.entries(item)
      .filter(([m]) => ['get', 'put', 'post', 'delete', 'patch'].includes(m))
      .map(([m, op]) => ({ path: p, method: m, op })),
  );

describe('the published OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document (official JSON Schema, @seriousme/openapi-schema-validator)', async () => {
    // Asynchronously: the platform answering the script's request runs in this process.
    const run = promisify(execFile);
    const { stdout: out } = await run(process.execPath, [path.resolve(__dirname, '../scripts/validate-openapi.mjs'), `${platform.baseUrl}/openapi.json`], { encoding: 'utf8', timeout: 30_000 });
    expect(out).toMatch(/^valid OpenAPI 3\.1/);
  });

  it('the 3.1 check fails a document that breaks the schema', async () => {
    const broken = path.join(os.tmpdir(), `wellstream-broken-openapi-${process.pid}.json`);
    fs.writeFileSync(broken, JSON.stringify({ ...doc, openapi: '3.1.0', paths: { '/x': { get: { responses: { 200: { content: {} } } } } } }));
    try {
      const run = promisify(execFile);
      await expect(run(process.execPath, [path.resolve(__dirname, '../scripts/validate-openapi.mjs'), broken], { timeout: 30_000 })).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('not a valid OpenAPI 3.1 document') });
    } finally {
      fs.rmSync(broken, { force: true });
    }
  });

  it('names every operation uniquely', () => {
    const ids = operations().map((o) => o.op.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('has one error schema whose variants are told apart by required properties', () => {
    const { Error: error, Message, ErrorList, FieldErrors } = doc.components.schemas;
    expect(error.oneOf).toHaveLength(3);
    expect(Message.required).toEqual(['message']);
    expect(ErrorList).toMatchObject({ required: ['errors'], properties: { errors: { type: 'array' } } });
    expect(FieldErrors).toMatchObject({ required: ['errors'], properties: { errors: { type: 'object' } } });
  });

  it('documents the gateway\'s own answers on every proxied operation, and HTML where pages are served', () => {
    for (const { path: p, method, op } of operations()) {
      if (p.startsWith('/admin/customers') || p.startsWith('/admin/tokens') || p.endsWith('/settings') || p === '/admin/organizations/{org_id}') continue;
      expect([p, method, Object.keys(op.responses)]).toEqual([p, method, expect.arrayContaining(['502', '503'])]);
    }
    expect(Object.keys(doc.paths['/marketplace/{token}'].get.responses[200].content)).toEqual(['application/json', 'text/html']);
    expect(Object.keys(doc.paths['/marketplace/{token}'].get.responses[404].content)).toEqual(['application/json', 'text/html']);
    expect(doc.paths['/marketplace/{token}/timezone'].post.responses).toHaveProperty('400');
  });

  it('links the create operations to the reads that take their ids', () => {
    const ids = new Set(operations().map((o) => o.op.operationId));
    const creates: [string, string, string][] = [
      ['/admin/customers', 'post', '201'],
      ['/admin/customers/{customer_id}/organizations', 'post', '201'],
      ['/admin/customers/{customer_id}/tokens', 'post', '201'],
      ['/organizations/{org_id}/users', 'post', '201'],
      ['/streams', 'post', '201'],
      ['/organizations/{org_id}/users/{uid}/rules', 'post', '201'],
      ['/organizations/{org_id}/notification_target', 'put', '200'],
    ];
    for (const [p, m, status] of creates) {
      const links = doc.paths[p][m].responses[status].links as Record<string, { operationId: string }>;
      expect([p, Object.keys(links ?? {}).length > 0]).toEqual([p, true]);
      for (const l of Object.values(links)) expect([p, ids.has(l.operationId)]).toEqual([p, true]);
    }
  });
});

describe('the answer check every ApiClient request goes through', () => {
  it('finds operations and flags an undocumented status, an undocumented content type and a body off its schema', async () => {
    const checker = await OpenApiConformance.for(platform.baseUrl);
    const url = new URL(`${platform.baseUrl}/streams/str_1`);
    const answer = (status: number, contentType: string, body: unknown) => ({ method: 'GET', url, status, contentType, body, text: JSON.stringify(body) });
    expect(checker.operationFor('GET', url)?.operationId).toBe('getStream');
    expect(checker.problems(answer(404, 'application/json; charset=utf-8', { errors: ['No stream str_1.'] }))).toEqual([]);
    expect(checker.problems(answer(418, 'application/json', { errors: ['teapot'] }))).toEqual([expect.stringContaining('status not documented')]);
    expect(checker.problems(answer(404, 'text/html', '<p>gone</p>'))).toEqual([expect.stringContaining('content type text/html not documented')]);
    // An error body with both shapes, or a field-keyed 404, contradicts the error schema.
    expect(checker.problems(answer(404, 'application/json', { errors: { id: ['x'] } }))).toEqual([expect.stringContaining('body does not match')]);
    expect(checker.problems(answer(401, 'application/json', { message: 'x', errors: ['y'] }))).toEqual([expect.stringContaining('body does not match')]);
    expect(checker.problems(answer(200, 'application/json', { id: 'str_1' }))).toEqual([expect.stringContaining('body does not match')]);
  });
});
