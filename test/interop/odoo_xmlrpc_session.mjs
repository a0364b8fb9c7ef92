// odoo-xmlrpc 1.0.8 (npm, on node-xmlrpc; /xmlrpc/2 only) runs the core session through its
// connect() and execute_kw() callbacks, plus its README's positional style and render_report.
// Run with TZ=America/New_York. Prints one JSON document.
// Usage: TZ=America/New_York node odoo_xmlrpc_session.mjs URL DB LOGIN PASSWORD KEY
import Odoo from 'odoo-xmlrpc';
import { coreSession, fault, timeZone } from './node_core_session.mjs';

const [url, db, login, password, key] = process.argv.slice(2);
const promised = (fn) => new Promise((resolve, reject) => fn((err, value) => (err ? reject(err) : resolve(value))));
const clients = new Map();
const clientFor = async (secret) => {
  if (!clients.has(secret)) {
    const odoo = new Odoo({ url, db, username: login, password: secret });
    // a wrong password is never connected: its calls carry uid 0, the library's initial value
    if (secret !== 'wrong-password') await promised((cb) => odoo.connect(cb));
    clients.set(secret, odoo);
  }
  return clients.get(secret);
};

/** What connect() calls back with for a wrong password: a plain object with a message. */
async function authWrong() {
  const odoo = new Odoo({ url, db, username: login, password: 'wrong-password' });
  try {
    await promised((cb) => odoo.connect(cb));
  } catch (err) {
    if (err instanceof Error) throw err;
    return { rejected: err.constructor.name, message: err.message };
  }
  throw new Error('connect() with a wrong password succeeded');
}

const out = { tz: timeZone() };
const r = (out.v2 = await coreSession(
  {
    version: null, // odoo-xmlrpc has no version()
    authenticate: async (secret) => promised((cb) => new Odoo({ url, db, username: login, password: secret }).connect(cb)),
    authWrong,
    call: async (secret, model, method, args, kwargs) => {
      const odoo = await clientFor(secret);
      return promised((cb) => odoo.execute_kw(model, method, [args, kwargs], cb));
    },
  },
  'v2',
  { password, key },
));

const odoo = await clientFor(password);
// the README's style: positional arguments only, no kwargs struct
r.positional = await promised((cb) => odoo.execute_kw('res.partner', 'search', [[[['is_company', '=', true]], 0, 3, 'id']], cb));
// /xmlrpc/2/report: gone since Odoo 11, a fault on Odoo 19 as well
r.render_report = await fault(promised((cb) => odoo.render_report('sale.report_saleorder', [[1]], cb)));
console.log(JSON.stringify(out));
