/**
 * An API key for a user of a real Odoo, minted the way the gateway mints one (a web session, then
 * `make_key` through the identity check), for the benchmarks that call Odoo straight (bench:odoo,
 * bench:profile --odoo).
 */
export async function mintOdooKey(odoo: string, db: string, login = 'admin', password = 'admin'): Promise<string> {
  let cookie = '';
  const rpc = async (path: string, params: unknown) => {
    const res = await fetch(odoo + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'call', params }),
    });
    const set = res.headers.get('set-cookie');
    if (set) cookie = set.split(';')[0]!;
    const body = (await res.json()) as { result?: unknown; error?: unknown };
    if (body.error !== undefined) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
    return body.result as Record<string, unknown>;
  };
  const kw = (model: string, method: string, args: unknown[], kwargs = {}) => rpc('/web/dataset/call_kw', { model, method, args, kwargs });
  await rpc('/web/session/authenticate', { db, login, password });
  let desc = (await kw('res.users.apikeys.description', 'create', [{ name: 'bench', duration: '1' }])) as unknown;
  if (Array.isArray(desc)) desc = desc[0];
  let act = await kw('res.users.apikeys.description', 'make_key', [[desc]]);
  if (act.res_model === 'res.users.identitycheck')
    act = await kw('res.users.identitycheck', 'run_check', [[act.res_id]], { context: { password } });
  return (act.context as { default_key: string }).default_key;
}
