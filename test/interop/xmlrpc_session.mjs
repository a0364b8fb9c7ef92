// The npm `xmlrpc` client (node-xmlrpc 1.3.2) runs the core session on /xmlrpc/2 and /xmlrpc (v1),
// plus what only it sends: <int> beyond 2^31, CDATA strings, <params/>. Run with TZ=America/New_York:
// it sends Date objects in the process's local time. Prints one JSON document.
// Usage: TZ=America/New_York node xmlrpc_session.mjs URL DB LOGIN PASSWORD KEY
import xmlrpc from 'xmlrpc';
import { coreSession, timeZone } from './node_core_session.mjs';

const [url, db, login, password, key] = process.argv.slice(2);

function proxy(path) {
  const client = xmlrpc.createClient({ url: `${url}${path}` });
  return (method, params) =>
    new Promise((resolve, reject) => client.methodCall(method, params, (err, value) => (err ? reject(err) : resolve(value))));
}

async function session(prefix, tag) {
  const common = proxy(`${prefix}/common`);
  const object = proxy(`${prefix}/object`);
  let uid = 0;
  const r = await coreSession(
    {
      version: () => common('version', []), // serialised as <params/>
      authenticate: async (secret) => (uid = await common('authenticate', [db, login, secret, {}])),
      authWrong: () => common('authenticate', [db, login, 'wrong-password', {}]),
      call: (secret, model, method, args, kwargs) => object('execute_kw', [db, uid, secret, model, method, args, kwargs]),
    },
    tag,
    { password, key },
  );
  const call = (model, method, args, kwargs = {}) => object('execute_kw', [db, uid, password, model, method, args, kwargs]);
  // 3000000000 goes out as <int>, '<' as <![CDATA[<]]>
  r.big_int = await call('res.partner', 'search_count', [[['id', '<', 3000000000]]]);
  const cdataName = `Node & <CDATA> ${tag}`;
  const id = await call('res.partner.category', 'create', [{ name: cdataName }]);
  r.cdata_read = await call('res.partner.category', 'read', [[id], ['name']]);
  r.cdata_unlink = await call('res.partner.category', 'unlink', [[id]]);
  return r;
}

const out = { tz: timeZone() };
out.v2 = await session('/xmlrpc/2', 'v2');
out.v1 = await session('/xmlrpc', 'v1');
console.log(JSON.stringify(out));
