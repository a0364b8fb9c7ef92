"""Records how CPython binds `method(recs, *args, **kwargs)` for a set of signatures and call shapes.

Writes python-typeerror.json beside this file: for each call either Python's exact TypeError text or
where each argument went. bind tests replay it without Python. Run with python3.11 (the version Odoo
19.0 ran in the corpus): `python3.11 src/signatures/vectors/gen-python-typeerror.py`.
"""
import itertools
import json
import os
import sys

# (qualname, params): params as [name, kind, default text or None], the shape of _method-table.json.
# Real Odoo 19 signatures first, then synthetic ones for the message variants the table lacks.
P, O, VP, K, VK = 'POSITIONAL_OR_KEYWORD', 'POSITIONAL_ONLY', 'VAR_POSITIONAL', 'KEYWORD_ONLY', 'VAR_KEYWORD'
SIGNATURES = [
    ('BaseModel.search', [['domain', P, None], ['offset', P, '0'], ['limit', P, 'None'], ['order', P, 'None']]),
    ('BaseModel.search_count', [['domain', P, None], ['limit', P, 'None']]),
    ('ResPartner.name_create', [['name', P, None]]),
    ('BaseModel.name_search', [['name', P, "''"], ['domain', P, 'None'], ['operator', P, "'ilike'"], ['limit', P, '100']]),
    ('BaseModel.read', [['fields', P, 'None'], ['load', P, "'_classic_read'"]]),
    ('BaseModel.write', [['vals', P, None]]),
    ('Base.unlink', []),
    ('BaseModel.search_read', [['domain', P, 'None'], ['fields', P, 'None'], ['offset', P, '0'], ['limit', P, 'None'],
                               ['order', P, 'None'], ['read_kwargs', VK, None]]),
    ('Base.formatted_read_grouping_sets', [['domain', P, None], ['grouping_sets', P, None], ['aggregates', P, '()'],
                                           ['order', K, 'None']]),
    ('Base.web_read_group', [['domain', P, None], ['groupby', P, None], ['aggregates', P, '()'], ['limit', P, 'None'],
                             ['offset', P, '0'], ['order', P, 'None'], ['auto_unfold', K, 'False'],
                             ['opening_info', K, 'None']]),
    ('MailThread.message_post', [['args', VP, None], ['body', K, "''"], ['message_type', K, "'notification'"],
                                 ['kwargs', VK, None]]),
    ('SaleOrder.message_post', [['kwargs', VK, None]]),
    ('ResUsers.send_unregistered_user_reminder', [['after_days', K, '5'], ['batch_size', K, '100']]),
    ('Base.get_view', [['view_id', P, 'None'], ['view_type', P, "'form'"], ['options', VK, None]]),
    ('Synthetic.three', [['a', P, None], ['b', P, None], ['c', P, None]]),
    ('Synthetic.four', [['a', P, None], ['b', P, None], ['c', P, None], ['d', P, None], ['e', P, '1']]),
    ('Synthetic.optional_kwonly', [['a', P, '1'], ['k', K, '2']]),
    ('Synthetic.kwonly_required', [['a', P, None], ['x', K, None], ['y', K, '1'], ['z', K, None]]),
    ('Synthetic.kwonly_only', [['x', K, None], ['y', K, None], ['z', K, None]]),
    ('Synthetic.posonly', [['a', O, None], ['b', O, '1'], ['c', P, '2']]),
    ('Synthetic.posonly_varkw', [['a', O, None], ['b', P, None], ['kw', VK, None]]),
    ('Synthetic.posonly_default', [['a', O, '1'], ['kw', VK, None]]),
    ('Synthetic.varargs_kwonly', [['a', P, None], ['rest', VP, None], ['k', K, None]]),
]
EXTRA_KEYWORDS = ['self', 'bogus', 'ids']


def make_function(qualname, params):
    """A function with the signature; defaults are sentinels so supplied values can be told apart."""
    parts, seen_star, namespace = [], False, {'_DEFAULT': _DEFAULT}
    for i, (name, kind, default) in enumerate(params):
        if kind == K and not seen_star:
            parts.append('*')
            seen_star = True
        text = name + ('=_DEFAULT' if default is not None else '')
        if kind == VP:
            text, seen_star = '*' + name, True
        elif kind == VK:
            text = '**' + name
        parts.append(text)
        if kind == O and (i + 1 == len(params) or params[i + 1][1] != O):
            parts.append('/')
    source = 'def f(self%s):\n    return dict(locals())\n' % ''.join(', ' + p for p in parts)
    exec(source, namespace)
    f = namespace['f']
    f.__qualname__ = qualname
    return f


class _Default:
    def __repr__(self):
        return '<default>'


_DEFAULT = _Default()


def calls_for(params):
    """Call shapes: 0 to positional+2 positionals with no keyword or one keyword (each parameter
    name and a few others); ordered keyword pairs only at the counts where checks meet."""
    npos = sum(1 for _, k, _ in params if k in (P, O))
    names = [n for n, _, _ in params] + EXTRA_KEYWORDS
    singles = [()] + [(n,) for n in names]
    pairs = list(itertools.permutations(names[:2] + ['bogus'], 2)) + [('bogus', 'self'), ('self', 'bogus')]
    if len(names) >= 6:
        pairs.append(tuple(names[1:4]))
    for nargs in range(0, npos + 3):
        for kws in singles:
            yield nargs, list(kws)
        if nargs in (0, 1, npos, npos + 1):
            for kws in pairs:
                yield nargs, list(kws)


def record(qualname, params):
    f = make_function(qualname, params)
    calls = []
    for nargs, kws in calls_for(params):
        args = list(range(1, nargs + 1))
        kwargs = {k: 'kw:' + k for k in kws}
        try:
            bound = f('recs', *args, **kwargs)
        except TypeError as e:
            calls.append({'args': nargs, 'kwargs': kws, 'error': str(e)})
            continue
        supplied = {}
        varargs, extra = [], {}
        for name, kind, _ in params:
            value = bound[name]
            if kind == VP:
                varargs = list(value)
            elif kind == VK:
                extra = value
            elif value is not _DEFAULT:
                supplied[name] = value
        calls.append({'args': nargs, 'kwargs': kws, 'bound': supplied, 'varargs': varargs, 'extra': extra})
    return {'qualname': qualname, 'params': params, 'calls': calls}


def main():
    out = {
        'generator': 'src/signatures/vectors/gen-python-typeerror.py',
        'python': sys.version.split()[0],
        'call': "method('recs', *range(1, args + 1), **{k: 'kw:' + k for k in kwargs})",
        'signatures': [record(q, p) for q, p in SIGNATURES],
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'python-typeerror.json')
    with open(path, 'w') as fh:
        # One call per line: compact, and a regenerated file diffs line by line.
        fh.write('{\n')
        for key in ('generator', 'python', 'call'):
            fh.write('%s: %s,\n' % (json.dumps(key), json.dumps(out[key])))
        fh.write('"signatures": [\n')
        for i, sig in enumerate(out['signatures']):
            fh.write('{"qualname": %s, "params": %s, "calls": [\n' % (json.dumps(sig['qualname']), json.dumps(sig['params'])))
            fh.write(',\n'.join(json.dumps(c, separators=(',', ':')) for c in sig['calls']))
            fh.write('\n]}%s\n' % (',' if i + 1 < len(out['signatures']) else ''))
        fh.write(']\n}\n')
    total = sum(len(s['calls']) for s in out['signatures'])
    errors = sum(1 for s in out['signatures'] for c in s['calls'] if 'error' in c)
    print('wrote %s: %d calls, %d TypeErrors' % (path, total, errors))


if __name__ == '__main__':
    main()
