// odoo-await 3.4.1 (npm, on node-xmlrpc; /xmlrpc/2 only) runs the core session through its connect()
// and execute_kw(), then its CRUD helpers. Run with TZ=America/New_York. Prints one JSON document.
// Usage: TZ=America/New_York node odoo_await_session.mjs URL DB LOGIN PASSWORD KEY
import Odoo from 'odoo-await';
import { coreSession, timeZone } from './node_core_session.mjs';

const [url, db, login, password, key] = process.argv.slice(2);
const connect = async (secret) => {
  const odoo = new Odoo({ baseUrl: url, db, username: login, password: secret });
  await odoo.connect();
  return odoo;
};
// one connected client per secret; a wrong password is never connected (its uid comes from the admin's)
const clients = new Map();
const clientFor = async (secret) => {
  if (!clients.has(secret))
    clients.set(
      secret,
      secret === 'wrong-password'
        ? Object.assign(new Odoo({ baseUrl: url, db, username: login, password: secret }), { uid: 2 })
        : await connect(secret),
    );
  return clients.get(secret);
};

/** What connect() rejects with for a wrong password: odoo-await rejects with a plain string. */
async function authWrong() {
  try {
    await connect('wrong-password');
  } catch (err) {
    if (typeof err !== 'string') throw err;
    return { rejected: 'string', message: err };
  }
  throw new Error('connect() with a wrong password resolved');
}

const out = { tz: timeZone() };
const r = (out.v2 = await coreSession(
  {
    version: null, // odoo-await has no version()
    authenticate: async (secret) => (await clientFor(secret)).uid,
    authWrong,
    call: async (secret, model, method, args, kwargs) => (await clientFor(secret)).execute_kw(model, method, [args, kwargs]),
  },
  'v2',
  { password, key },
));

const odoo = await clientFor(password);
const h = (r.helpers = {});
const id = (h.create = await odoo.create('res.partner.category', { name: 'odoo-await & <helpers>' }));
h.update = await odoo.update('res.partner.category', id, { name: 'odoo-await & <helpers> v2' });
h.read = await odoo.read('res.partner.category', id, ['name']);
h.delete = await odoo.delete('res.partner.category', id);
h.read_gone = await odoo.read('res.partner.category', [id], ['name']);
h.searchRead = await odoo.searchRead('res.partner', [['is_company', '=', true]], ['name'], {
  offset: 0,
  limit: 3,
  order: 'id',
  context: {},
});
h.search = await odoo.search('res.partner', { is_company: true });
h.getFields = await odoo.getFields('res.partner', ['type']);
console.log(JSON.stringify(out));
