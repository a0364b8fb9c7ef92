"""Hostile-input answers, parsed the way legacy clients parse them, and what Odoo 19 would answer.

Reads one JSON array of cases on stdin and writes one JSON object per case id on stdout:
- "answer": the gateway's answer as Python's xmlrpc.client.loads / json.loads read it
  (kind fault / error / result / http / malformed / none);
- "oracle": for cases that ask for one, what Odoo 19 gives for the same request, computed here with
  CPython's own parsers and a model of Odoo's legacy dispatchers (odoo/service/{common,db,model}.py,
  odoo/http.py JsonRPCDispatcher, addons/rpc/controllers/jsonrpc.py): kind exception (with the
  traceback's last line) / http (status and description) / passes (the request reaches a real call).

One process for the whole batch. The oracle only models what happens before an ORM
method runs: request parsing, the JSON-RPC envelope, dispatch, master password, arity, int(uid).
"""
import base64
import json
import sys
import traceback
import xmlrpc.client

MASTER_PASSWORD = 'admin'


def exception_of(exc):
    """Odoo's traceback ends with this line; JSON-RPC data.name is module.qualname."""
    cls = type(exc)
    module = cls.__module__
    return {
        'kind': 'exception',
        'name': cls.__qualname__ if module == 'builtins' else f'{module}.{cls.__qualname__}',
        'jsonName': f'{module}.{cls.__qualname__}',
        'last': traceback.format_exception_only(exc)[-1].strip(),
    }


class AccessDenied(Exception):
    """odoo.exceptions.AccessDenied as the traceback prints it."""

    def __init__(self, message='Access Denied'):
        super().__init__(message)


AccessDenied.__module__ = 'odoo.exceptions'


class Passes(Exception):
    """The request would reach a real method call: the oracle stops here."""


# --- odoo/service/common.py ---------------------------------------------------------------
def exp_login(db, login, password): raise Passes()
def exp_authenticate(db, login, password, user_agent_env): raise Passes()
def exp_version(): raise Passes()
def exp_about(extended=False): raise Passes()
def exp_set_loglevel(loglevel, logger=None): raise Passes()


for _f in (exp_login, exp_authenticate, exp_version, exp_about, exp_set_loglevel):
    _f.__module__ = 'odoo.service.common'  # CPython names it in "argument after *" errors
COMMON = {n[4:]: f for n, f in dict(globals()).items() if n.startswith('exp_')}


def common_dispatch(method, params):
    'exp_' + method  # odoo/service/common.py builds the name first: a method that is no str is its TypeError
    if method in COMMON:
        return COMMON[method](*params)
    raise Exception('Method not found: %s' % method)


# --- odoo/service/db.py ---------------------------------------------------------------------
def exp_create_database(db_name, demo, lang, user_password='admin', login='admin', country_code=None, phone=None): raise Passes()
def exp_duplicate_database(db_original_name, db_name, neutralize_database=False): raise Passes()
def exp_drop(db_name): raise Passes()
def exp_dump(db_name, format): raise Passes()
def exp_restore(db_name, data, copy=False): raise Passes()
def exp_rename(old_name, new_name): raise Passes()
def exp_change_admin_password(new_password): raise Passes()
def exp_migrate_databases(databases): raise Passes()
def exp_list_countries(): raise Passes()
def exp_db_exist(db_name): raise Passes()
def exp_list(document=False): raise Passes()
def exp_list_lang(): raise Passes()
def exp_server_version(): raise Passes()


for _n, _f in dict(globals()).items():
    if _n.startswith('exp_') and _n[4:] not in COMMON:
        _f.__module__ = 'odoo.service.db'
DB = {n[4:]: f for n, f in dict(globals()).items() if n.startswith('exp_') and n[4:] not in COMMON}


def check_super(passwd):
    if passwd and passwd == MASTER_PASSWORD:
        return True
    raise AccessDenied()


def db_dispatch(method, params):
    'exp_' + method  # odoo/service/db.py, as above
    if method in ['db_exist', 'list', 'list_lang', 'server_version']:
        return DB[method](*params)
    elif method in DB:
        passwd = params[0]
        params = params[1:]
        check_super(passwd)
        return DB[method](*params)
    raise KeyError('Method not found: %s' % method)


# --- odoo/service/model.py (19.0, reference section 5.4) -----------------------------------------
def object_dispatch(method, params, valid):
    db, uid, passwd, model, method_, *args = params
    uid = int(uid)
    if not passwd:
        raise AccessDenied()
    if method == 'execute':
        kw = {}
    elif method == 'execute_kw':
        if len(args) == 1:
            args.append({})
        args, kw = args
        kw = dict(kw or {})
    else:
        raise NameError(f"Method not available {method}")
    if (db, uid, passwd) not in valid:
        raise AccessDenied()
    raise Passes()


def dispatch_rpc(service, method, params, valid):
    # odoo.http.dispatch_rpc: rpc_dispatchers[service] -> KeyError for an unknown one
    dispatchers = {'common': common_dispatch, 'db': db_dispatch, 'object': lambda m, p: object_dispatch(m, p, valid)}
    return dispatchers[service](method, params)


def rpc_oracle(service, method, params, valid):
    try:
        dispatch_rpc(service, method, params, valid)
    except Passes:
        return {'kind': 'passes'}
    except Exception as exc:  # noqa: BLE001 - every exception is an answer
        return exception_of(exc)
    return {'kind': 'passes'}


# --- the request parsers -------------------------------------------------------------------
def xml_oracle(body, service, valid):
    """addons/rpc/controllers/xmlrpc.py: xmlrpc.client.loads(data, use_datetime=True), then dispatch."""
    try:
        params, method = xmlrpc.client.loads(body, use_datetime=True)
    except Exception as exc:  # noqa: BLE001
        return exception_of(exc)
    return rpc_oracle(service, method, params, valid)


class JSONRPC:
    def jsonrpc(self, service, method, args): pass


def json_oracle(body, valid):
    """JsonRPCDispatcher: json.loads(get_data(as_text=True)) -> 400 Invalid JSON data; then the route."""
    try:
        request = json.loads(body.decode('utf-8', 'replace'))
    except ValueError:
        return {'kind': 'http', 'status': 400, 'text': 'Invalid JSON data'}
    if not isinstance(request, dict):
        return {'kind': 'http', 'status': 400, 'text': 'Invalid JSON-RPC data'}
    try:
        params = dict(request.get('params', {}))
        # the route wrapper drops keyword arguments the endpoint does not take
        JSONRPC().jsonrpc(**{k: v for k, v in params.items() if k in ('service', 'method', 'args')})
    except Exception as exc:  # noqa: BLE001
        return exception_of(exc)
    return rpc_oracle(params['service'], params['method'], params['args'], valid)


# --- the gateway's answers -----------------------------------------------------------------
def last_line(text):
    lines = [ln for ln in (text or '').split('\n') if ln.strip()]
    return lines[-1].strip() if lines else ''


def read_answer(case):
    answer = case['answer']
    if answer.get('error') and not answer.get('status'):
        return {'kind': 'none', 'error': answer['error']}
    status = answer['status']
    body = base64.b64decode(answer['body'])
    if status != 200:
        text = body.decode('utf-8', 'replace')
        p = text.split('<p>', 1)[1].split('</p>', 1)[0] if '<p>' in text else text[:200]
        return {'kind': 'http', 'status': status, 'text': p}
    if case['endpoint'] == 'jsonrpc':
        try:
            envelope = json.loads(body)
        except ValueError as exc:
            return {'kind': 'malformed', 'error': str(exc)}
        if not isinstance(envelope, dict) or envelope.get('jsonrpc') != '2.0':
            return {'kind': 'malformed', 'error': 'not a JSON-RPC 2.0 envelope'}
        if 'error' in envelope:
            error = envelope['error']
            data = error.get('data', {})
            return {'kind': 'error', 'code': error.get('code'), 'name': data.get('name'), 'last': last_line(data.get('debug')), 'message': data.get('message'), 'id': envelope.get('id')}
        return {'kind': 'result', 'type': type(envelope.get('result')).__name__, 'id': envelope.get('id')}
    try:
        params, _method = xmlrpc.client.loads(body, use_datetime=True)
    except xmlrpc.client.Fault as fault:
        return {'kind': 'fault', 'code': fault.faultCode, 'last': last_line(fault.faultString), 'faultString': fault.faultString[:300]}
    except Exception as exc:  # noqa: BLE001
        return {'kind': 'malformed', 'error': f'{type(exc).__name__}: {exc}'}
    return {'kind': 'result', 'type': type(params[0]).__name__ if params else 'none'}


def main():
    cases = json.load(sys.stdin)
    out = {}
    for case in cases:
        valid = {tuple(v) for v in case.get('valid', [])}
        oracle = None
        if case.get('oracle'):
            request = base64.b64decode(case['request'])
            if case['endpoint'] == 'jsonrpc':
                oracle = json_oracle(request, valid)
            else:
                oracle = xml_oracle(request, case['service'], valid)
        out[case['id']] = {'answer': read_answer(case), 'oracle': oracle}
    json.dump(out, sys.stdout)


if __name__ == '__main__':
    main()
