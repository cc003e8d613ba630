/**
 * Stream resources through the gateway: create/list/get/rename/delete and all their errors.
 */
import { ApiClient, connectSse, createTenant, Tenant, testRuntime } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';

function streamResourcesSuite(mode: 'embedded' | 'distributed') {
  describe(`stream resources (${mode})`, () => {
    let platform: TestPlatform;
    let tenant: Tenant;
    let api: ApiClient;

    beforeAll(async () => {
      platform = await startTestPlatform({ mode, label: 'streams-resources' });
    });
    afterAll(async () => {
      await platform?.stop();
    });
    beforeEach(async () => {
      tenant = await createTenant(platform.baseUrl);
      api = tenant.api;
    });

    it('creates a stream with exactly the documented fields', async () => {
      const res = await api.post('/streams', { name: 'main' });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(
        ['created_at', 'event_type_filter', 'group', 'id', 'members', 'name', 'resource_filter', 'start_date', 'updated_at'].sort(),
      );
      expect(res.body).toMatchObject({ name: 'main', members: 0, start_date: null, resource_filter: [] });
      expect(res.body.group).toBe(`stream-${res.body.id}`);
      expect(res.body.event_type_filter).toEqual(['data', 'connection', 'rule']);
      expect(res.body.created_at).toBe(res.body.updated_at);
    });

    it('keeps the filters given at creation', async () => {
      const res = await api.post('/streams', {
        name: 'filtered',
        start_date: '2024-02-29',
        resource_filter: ['sleep', 'cgm', 'sleep'],
        event_type_filter: ['data'],
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ start_date: '2024-02-29', resource_filter: ['sleep', 'cgm'], event_type_filter: ['data'] });
    });

    it('rejects semantic problems with 422 keyed by field', async () => {
      const cases: [unknown, string][] = [
        [{}, 'name'],
        [{ name: '   ' }, 'name'],
        [{ name: 'x'.repeat(201) }, 'name'],
        [{ name: 'a', start_date: '2024-13-01' }, 'start_date'],
        [{ name: 'a', start_date: '2023-02-29' }, 'start_date'],
        [{ name: 'a', start_date: '01/02/2024' }, 'start_date'],
        [{ name: 'a', resource_filter: ['sleep', 'steps'] }, 'resource_filter[1]'],
        [{ name: 'a', event_type_filter: ['poke'] }, 'event_type_filter[0]'],
      ];
      for (const [body, field] of cases) {
        const res = await api.post('/streams', body);
        expect({ body, status: res.status }).toEqual({ body, status: 422 });
        expect(res.body.errors[field]).toEqual(expect.any(Array));
      }
      expect((await api.get('/streams')).body.meta.total).toBe(0);
    });

    it('rejects malformed bodies with 400', async () => {
      for (const body of [{ name: 5 }, { name: 'a', resource_filter: 'sleep' }, { name: 'a', start_date: 20240101 }, ['a']]) {
        const res = await api.post('/streams', body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
      }
      const raw = await api.request('POST', '/streams', undefined, { rawBody: '{"name":' });
      expect(raw.status).toBe(400);
    });

    it('keeps names unique per customer and allows 5 streams', async () => {
      expect((await api.post('/streams', { name: 'dup' })).status).toBe(201);
      const dup = await api.post('/streams', { name: 'dup' });
      expect(dup.status).toBe(422);
      expect(dup.body.errors.name[0]).toMatch(/already exists/);
      // Another customer may use the same name.
      const other = await createTenant(platform.baseUrl);
      expect((await other.api.post('/streams', { name: 'dup' })).status).toBe(201);
      for (let i = 2; i <= 5; i++) expect((await api.post('/streams', { name: `s${i}` })).status).toBe(201);
      const sixth = await api.post('/streams', { name: 's6' });
      expect(sixth.status).toBe(422);
      expect(sixth.body.errors.streams[0]).toMatch(/at most 5/);
      // Deleting one frees a place.
      const list = await api.get('/streams?q=name=s3');
      expect((await api.delete(`/streams/${list.body.streams[0].id}`)).status).toBe(200);
      expect((await api.post('/streams', { name: 's6' })).status).toBe(201);
    });

    it('enforces the limit under concurrent creates', async () => {
      const results = await Promise.all([...Array(8).keys()].map((i) => api.post('/streams', { name: `c${i}` })));
      expect(results.filter((r) => r.status === 201)).toHaveLength(5);
      expect(results.filter((r) => r.status === 422)).toHaveLength(3);
    });

    it('lists most recent first, with q, sort and paging', async () => {
      for (const name of ['Alpha', 'beta', 'alphabet', 'gamma']) expect((await api.post('/streams', { name })).status).toBe(201);
      const all = await api.get('/streams');
      expect(all.status).toBe(200);
      expect(all.body.streams.map((s: { name: string }) => s.name)).toEqual(['gamma', 'alphabet', 'beta', 'Alpha']);
      expect(all.body.meta).toEqual({ total: 4, sort: '-created_at', offset: 0, limit: 25 });

      const asc = await api.get('/streams?sort=created_at');
      expect(asc.body.streams.map((s: { name: string }) => s.name)).toEqual(['Alpha', 'beta', 'alphabet', 'gamma']);

      const exact = await api.get(`/streams?q=${encodeURIComponent('name=Alpha')}`);
      expect(exact.body.streams.map((s: { name: string }) => s.name)).toEqual(['Alpha']);
      const like = await api.get('/streams?q=name~ALPHA');
      expect(like.body.streams.map((s: { name: string }) => s.name)).toEqual(['alphabet', 'Alpha']);
      expect(like.body.meta.total).toBe(2);

      const page = await api.get('/streams?offset=1&limit=2');
      expect(page.body.streams.map((s: { name: string }) => s.name)).toEqual(['alphabet', 'beta']);
      expect(page.body.meta).toEqual({ total: 4, sort: '-created_at', offset: 1, limit: 2 });

      // updated_at ascending: renaming Alpha makes it the most recently updated.
      const alpha = exact.body.streams[0];
      expect((await api.put(`/streams/${alpha.id}`, { name: 'Alpha2' })).status).toBe(200);
      const byUpdate = await api.get('/streams?sort=updated_at');
      expect(byUpdate.body.streams.at(-1).name).toBe('Alpha2');
      const byUpdateDesc = await api.get('/streams?sort=-updated_at');
      expect(byUpdateDesc.body.streams[0].name).toBe('Alpha2');

      for (const q of ['sort=name', 'limit=0', 'limit=101', 'offset=-1', 'limit=abc', 'q=title=x', 'q=name=', 'q=name~']) {
        const res = await api.get(`/streams?${q}`);
        expect({ q, status: res.status }).toEqual({ q, status: 400 });
        expect(typeof res.body.errors).toBe('object');
      }
    });

    it('gets and renames; only name changes', async () => {
      const created = (await api.post('/streams', { name: 'one', resource_filter: ['sleep'] })).body;
      const got = await api.get(`/streams/${created.id}`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(created);

      await new Promise((r) => setTimeout(r, 5));
      const renamed = await api.put(`/streams/${created.id}`, { name: 'two', resource_filter: ['workout'], group: 'x', members: 9 });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ ...created, name: 'two', updated_at: expect.any(String) });
      expect(renamed.body.updated_at > created.updated_at).toBe(true);
      expect(renamed.body.created_at).toBe(created.created_at);

      expect((await api.post('/streams', { name: 'three' })).status).toBe(201);
      const dup = await api.put(`/streams/${created.id}`, { name: 'three' });
      expect(dup.status).toBe(422);
      expect(dup.body.errors.name).toBeDefined();
      expect((await api.put(`/streams/${created.id}`, { name: '' })).status).toBe(422);
      expect((await api.put(`/streams/${created.id}`, {})).status).toBe(422);
      expect((await api.put(`/streams/${created.id}`, { name: 7 })).status).toBe(400);
      // Renaming to its own name is fine.
      expect((await api.put(`/streams/${created.id}`, { name: 'two' })).status).toBe(200);
      expect((await api.put('/streams/nope', { name: 'x' })).status).toBe(404);
    });

    it('deletes for good', async () => {
      const created = (await api.post('/streams', { name: 'gone' })).body;
      const del = await api.delete(`/streams/${created.id}`);
      expect(del.status).toBe(200);
      expect(del.body).toMatchObject({ ...created, deleted_at: expect.any(String) });
      for (const res of [
        await api.get(`/streams/${created.id}`),
        await api.delete(`/streams/${created.id}`),
        await api.put(`/streams/${created.id}`, { name: 'back' }),
        await api.get(`/streams/${created.id}/connect`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.errors).toEqual([expect.any(String)]);
      }
      expect((await api.get('/streams')).body.streams).toEqual([]);
    });

    it("hides another customer's streams", async () => {
      const created = (await api.post('/streams', { name: 'mine' })).body;
      const other = await createTenant(platform.baseUrl);
      expect((await other.api.get(`/streams/${created.id}`)).status).toBe(404);
      expect((await other.api.put(`/streams/${created.id}`, { name: 'theirs' })).status).toBe(404);
      expect((await other.api.delete(`/streams/${created.id}`)).status).toBe(404);
      expect((await other.api.get(`/streams/${created.id}/connect`)).status).toBe(404);
      expect((await other.api.get('/streams')).body.streams).toEqual([]);
      expect((await api.get(`/streams/${created.id}`)).status).toBe(200);
    });

    it('pokes within 6 s at the default interval (5 s), with the default member limit', async () => {
      const stream = (await api.post('/streams', { name: 'poke' })).body;
      const c = await connectSse(`${platform.baseUrl}/streams/${stream.id}/connect?token=${tenant.token}`);
      // The interval runs from the open stream (headers received), and the poke's own `ts` says when
      // it was made: connecting (a store read, a member count from the event log) and the poke's
      // member count are real-server calls whose time on a loaded machine is no part of the interval.
      const opened = Date.now();
      try {
        const poke = await c.waitFor((e) => e.event === 'poke', 15_000);
        const after = Date.parse(poke.json().ts) - opened;
        expect(after).toBeGreaterThanOrEqual(2500);
        expect(after).toBeLessThan(6000);
        expect(poke.json()).toEqual({ ts: expect.any(String), stream: stream.id, members: { count: 1, max: 5 } });
        expect((await api.get(`/streams/${stream.id}`)).body.members).toBe(1);
      } finally {
        c.close();
      }
    });

    it('needs a developer token', async () => {
      expect((await api.withToken(undefined).get('/streams')).status).toBe(401);
      expect((await api.withToken('nope').post('/streams', { name: 'x' })).status).toBe(401);
    });

    it('serves its OpenAPI part through the gateway', async () => {
      const res = await new ApiClient(platform.url).get('/v2/openapi.json');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/streams', '/streams/{id}', '/streams/{id}/connect', '/replay']));
      expect(res.body.components.schemas.Stream).toBeDefined();
    });
  });
}

streamResourcesSuite(testRuntime());
