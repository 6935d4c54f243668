import { test, apiLogin, seedSession } from '../support/fixtures.js';
test('debug', async ({ page, request }) => {
  const s = await apiLogin(request);
  const h = { [s.tokenName]: s.tokenValue };
  const bundles = await (await request.get('/api/vip/score/bundle/list', { headers: h })).json();
  const qr = await (await request.post('/api/vip/pay/score-bundle/qrcode', { headers: h, data: { bundleId: bundles.data[0].id } })).json();
  await request.post('/api/pay/sandbox/checkout', { form: { orderNo: qr.data.orderNo } });
  const p = await (await request.post('/api/persona/save', { headers: h, data: { name: 'x', tone: 'y' } })).json();
  const t = await (await request.post('/api/mp/task/create', { headers: h, data: { createType: 'article', writeType: 'deep', content: '写一篇骑行文章', personaId: p.data.id } })).json();
  console.log(JSON.stringify(t));
  const t0 = Date.now();
  const sse = await (await request.get(`/api/mp/task/stream/${t.data.taskId}?token=${s.tokenValue}`)).text();
  console.log('deep took', Date.now() - t0, sse.slice(-300));
  const t2 = await (await request.post('/api/mp/task/create', { headers: h, data: { createType: 'article', writeType: 'quick', content: '春日骑行', modelConfigType: 'standin' } })).json();
  const t1 = Date.now();
  const sse2 = await (await request.get(`/api/mp/task/stream/${t2.data.taskId}?token=${s.tokenValue}`)).text();
  console.log('standin took', Date.now() - t1, sse2.length, sse2.slice(0, 400), sse2.slice(-300));
  await seedSession(page, s);
});
