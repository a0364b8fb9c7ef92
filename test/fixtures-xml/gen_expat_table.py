"""Writes test/fixtures-xml/expat-table.json: what CPython 3.11's `xmlrpc.client.loads(data,
use_datetime=True)` (Odoo 19's XML-RPC parser, on expat 2.5) returns or raises for each input below
and for every XML-RPC request body of the conformance corpus. decode.test.ts replays the table;
python is not needed at test time.

Usage (repository root):   python3 test/fixtures-xml/gen_expat_table.py
Oracle mode (fuzz-diff.ts): python3 test/fixtures-xml/gen_expat_table.py --oracle IN.json OUT.json
  (IN: a JSON list of base64 bodies; OUT: the outcomes, in the table's format.)

Outcome format: {"ok": {"method": str|null, "params": [tagged]}} or {"error": {"name", "last",
"message"}} where `last` is the traceback's last line and `message` is Odoo's
exception_to_unicode(e) (the v1 faultCode). Tagged values: ["int", "123"], ["bool", true],
["str", "x"], ["float", repr], ["nil"], ["array", [...]], ["struct", [[name, tagged], ...]],
["datetime", "YYYY-MM-DD HH:MM:SS"], ["binary", base64], ["decimal", str]. Struct names that are not
str are written as json.dumps would write them (the gateway's JSON-2 view of such a dict).
"""
import base64
import datetime
import decimal
import glob
import json
import os
import sys
import traceback
import xmlrpc.client

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def tag(v):
    if v is None:
        return ['nil']
    if isinstance(v, bool):
        return ['bool', v]
    if isinstance(v, int):
        return ['int', str(v)]
    if isinstance(v, float):
        return ['float', repr(v)]
    if isinstance(v, str):
        return ['str', v]
    if isinstance(v, list):
        return ['array', [tag(x) for x in v]]
    if isinstance(v, dict):
        return ['struct', [[key_text(k), tag(x)] for k, x in v.items()]]
    if isinstance(v, datetime.datetime):
        return ['datetime', '%04d-%02d-%02d %02d:%02d:%02d' % (v.year, v.month, v.day, v.hour, v.minute, v.second)]
    if isinstance(v, xmlrpc.client.Binary):
        return ['binary', base64.b64encode(v.data).decode()]
    if isinstance(v, decimal.Decimal):
        return ['decimal', str(v)]
    raise TypeError(type(v))


def key_text(k):
    if isinstance(k, str):
        return k
    if isinstance(k, datetime.datetime):
        return tag(k)[1]
    if isinstance(k, decimal.Decimal):
        return str(k)
    return json.dumps(k)


def exception_to_unicode(e):  # odoo.tools.misc
    if getattr(e, 'args', ()):
        return '\n'.join(str(a) for a in e.args)
    return str(e)


def outcome(data):
    try:
        params, method = xmlrpc.client.loads(data, use_datetime=True)
    except Exception as e:  # noqa: BLE001 - every exception is an outcome
        name = type(e).__module__ + '.' + type(e).__qualname__
        if name == 'pyexpat.ExpatError':
            name = 'xml.parsers.expat.ExpatError'
        last = traceback.format_exception_only(type(e), e)[-1].rstrip('\n')
        return {'error': {'name': name, 'last': last, 'message': exception_to_unicode(e)}}
    return {'ok': {'method': method, 'params': [tag(p) for p in params]}}


def call(*values, method='m'):
    """A methodCall with one <param> per value (each a raw XML <value> string)."""
    params = ''.join('<param>%s</param>' % v for v in values)
    return ('<?xml version="1.0"?><methodCall><methodName>%s</methodName><params>%s</params></methodCall>'
            % (method, params)).encode('utf-8')


def v(inner):
    return call('<value>%s</value>' % inner)


CASES = [
    # --- framing and whitespace ---
    ('empty-body', b''),
    ('truncated-after-params', b'<?xml version="1.0"?><methodCall><methodName>version</methodName><params>'),
    ('no-xml-declaration', b'<methodCall><methodName>version</methodName><params/></methodCall>'),
    ('no-params-element', b'<methodCall><methodName>version</methodName></methodCall>'),
    ('empty-params-element', b'<methodCall><methodName>version</methodName><params></params></methodCall>'),
    ('no-method-name', b'<methodCall><params><param><value>1</value></param></params></methodCall>'),
    ('method-call-empty', b'<methodCall/>'),
    ('method-response-as-request', b'<methodResponse><params><param><value><int>1</int></value></param></params></methodResponse>'),
    ('fault-document', b'<methodCall><fault><value><struct><member><name>faultCode</name><value><int>4</int></value></member><member><name>faultString</name><value>no</value></member></struct></value></fault></methodCall>'),
    ('fault-not-a-struct', b'<methodCall><fault><value><int>1</int></value></fault></methodCall>'),
    ('fault-missing-string', b'<methodCall><fault><value><struct><member><name>faultCode</name><value><int>1</int></value></member></struct></value></fault></methodCall>'),
    ('fault-empty', b'<methodCall><fault></fault></methodCall>'),
    ('pretty-printed', b'<?xml version="1.0"?>\n<methodCall>\n  <methodName>m</methodName>\n  <params>\n    <param>\n      <value>\n        <int> 2 </int>\n      </value>\n    </param>\n  </params>\n</methodCall>\n'),
    ('crlf-line-ends', b'<methodCall>\r\n<methodName>m</methodName>\r\n<params><param><value><string>a\r\nb\rc</string></value></param></params>\r\n</methodCall>\r\n'),
    ('two-values-in-one', v('<int>1</int><int>2</int>')),
    ('nested-value', v('<value>x</value>')),
    ('method-name-twice', b'<methodCall><methodName>a</methodName><methodName>b</methodName></methodCall>'),
    ('method-name-with-entity', b'<methodCall><methodName>a&amp;b&#x20;c</methodName></methodCall>'),
    ('text-around-typed-value', v('\n  <string>x</string>\n')),
    ('name-outside-struct', call('<name>n</name>')),
    # --- strings ---
    ('string-whitespace-kept', v('<string>  res.partner \t</string>')),
    ('untyped-value', v(' gw ')),
    ('empty-value', v('')),
    ('empty-value-self-closed', call('<value/>')),
    ('empty-string', v('<string/>')),
    ('string-entities', v('<string>&lt;&gt;&amp;&quot;&apos;</string>')),
    ('string-char-refs', v('<string>&#65;&#x42;&#x1F600;&#233;</string>')),
    ('string-cdata', v('<string><![CDATA[<b>&amp;</b>]]></string>')),
    ('string-cdata-mixed', v('<string>a<![CDATA[ & ]]>b</string>')),
    ('string-non-ascii', v('<string>Zoë 🙂 日本</string>')),
    ('string-text-after-child', v('<string>ab<x/>cd</string>')),
    ('string-char-ref-tab-cr', v('<string>&#9;&#13;&#10;</string>')),
    # --- ints ---
    ('int', v('<int>42</int>')),
    ('i4-negative', v('<i4>-7</i4>')),
    ('i8-beyond-2-31', v('<i8>3000000000</i8>')),
    ('int-beyond-2-31', v('<int>3000000000</int>')),
    ('int-huge', v('<int>123456789012345678901234567890</int>')),
    ('i1-i2-biginteger', call('<value><i1>1</i1></value>', '<value><i2>2</i2></value>', '<value><biginteger>-99999999999999999999</biginteger></value>')),
    ('int-whitespace-sign-underscore', v('<int> +1_000 </int>')),
    ('int-unicode-digits', v('<int>\u0661\u0662</int>')),
    ('int-double-underscore', v('<int>1__0</int>')),
    ('int-float-text', v('<int>1.5</int>')),
    ('int-empty', v('<int></int>')),
    ('int-too-many-digits', v('<int>%s</int>' % ('9' * 4301))),
    ('int-long-garbage', v('<int>%s</int>' % ('x' * 250))),
    ('int-quote-in-text', v("<int>it's</int>")),
    # --- doubles and decimals ---
    ('double', v('<double>2240.0</double>')),
    ('double-exponent', v('<double>1E3</double>')),
    ('double-inf-nan', call('<value><double>inf</double></value>', '<value><double>-Infinity</double></value>', '<value><double>nan</double></value>')),
    ('float-tag', v('<float> .5 </float>')),
    ('double-underscore', v('<double>1_0.5</double>')),
    ('double-bad', v('<double>1,5</double>')),
    ('double-integral', v('<double>3</double>')),
    ('bigdecimal', call('<value><bigdecimal>1.50</bigdecimal></value>', '<value><bigdecimal>1E3</bigdecimal></value>', '<value><bigdecimal>-0.0000001</bigdecimal></value>')),
    ('bigdecimal-bad', v('<bigdecimal>1.2.3</bigdecimal>')),
    ('bigdecimal-exponent-range', v('<bigdecimal>1e1000000000000000000</bigdecimal>')),
    # --- booleans and nil ---
    ('boolean-0-1', call('<value><boolean>0</boolean></value>', '<value><boolean>1</boolean></value>')),
    ('boolean-true-word', v('<boolean>true</boolean>')),
    ('boolean-padded', v('<boolean> 1</boolean>')),
    ('nil', v('<nil/>')),
    ('ex-nil', b'<methodCall xmlns:ex="http://ws.apache.org/xmlrpc/namespaces/extensions"><methodName>m</methodName><params><param><value><ex:nil/></value></param></params></methodCall>'),
    ('ex-i8', v('<ex:i8>9007199254740993</ex:i8>')),
    ('namespaced-unknown-local', v('<a:b:int>5</a:b:int>')),
    # --- base64 ---
    ('base64', v('<base64>aGVsbG8=</base64>')),
    ('base64-wrapped', v('<base64>\naGVsbG8g\nd29ybGQ=\n</base64>')),
    ('base64-garbage-chars', v('<base64>aGV*sbG8=</base64>')),
    ('base64-data-after-padding', v('<base64>aGk=aGk=</base64>')),
    ('base64-bad-padding', v('<base64>QQ=</base64>')),
    ('base64-one-extra-char', v('<base64>QUJDRA5</base64>')),
    ('base64-non-ascii', v('<base64>é</base64>')),
    ('base64-non-ascii-run', v('<base64>ab€€c</base64>')),
    ('base64-empty', v('<base64></base64>')),
    # --- dateTime.iso8601 ---
    ('datetime', v('<dateTime.iso8601>20240102T03:04:05</dateTime.iso8601>')),
    ('datetime-short-fields', v('<dateTime.iso8601>2024011t3:4:5</dateTime.iso8601>')),
    ('datetime-dashed', v('<dateTime.iso8601>2024-01-02T03:04:05</dateTime.iso8601>')),
    ('datetime-z-suffix', v('<dateTime.iso8601>20240102T03:04:05Z</dateTime.iso8601>')),
    ('datetime-millis', v('<dateTime.iso8601>20240102T03:04:05.000Z</dateTime.iso8601>')),
    ('datetime-leading-space', v('<dateTime.iso8601> 20240102T03:04:05</dateTime.iso8601>')),
    ('datetime-feb-30', v('<dateTime.iso8601>20240230T03:04:05</dateTime.iso8601>')),
    ('datetime-leap-day', v('<dateTime.iso8601>20240229T23:59:59</dateTime.iso8601>')),
    ('datetime-second-61', v('<dateTime.iso8601>20240101T03:04:61</dateTime.iso8601>')),
    ('datetime-year-0', v('<dateTime.iso8601>00000101T00:00:00</dateTime.iso8601>')),
    # --- arrays and structs ---
    ('array', v('<array><data><value><int>1</int></value><value>two</value></data></array>')),
    ('array-empty', v('<array><data/></array>')),
    ('array-without-data', v('<array><value><int>1</int></value></array>')),
    ('struct', v('<struct><member><name>a</name><value><int>1</int></value></member><member><name>b</name><value><string>x</string></value></member></struct>')),
    ('struct-empty', v('<struct/>')),
    ('struct-duplicate-name', v('<struct><member><name>a</name><value>1</value></member><member><name>b</name><value>2</value></member><member><name>a</name><value>3</value></member></struct>')),
    ('struct-proto-name', v('<struct><member><name>__proto__</name><value>p</value></member><member><name>1</name><value>n</value></member></struct>')),
    ('struct-member-without-value', v('<struct><member><name>a</name></member></struct>')),
    ('struct-list-name', v('<struct><member><value><array><data/></array></value><value>1</value></member></struct>')),
    ('struct-int-name', v('<struct><member><value><int>7</int></value><value>x</value></member></struct>')),
    ('struct-value-name-swapped', v('<struct><member><value>v</value><name>n</name></member></struct>')),
    ('nested', v('<array><data><value><struct><member><name>k</name><value><array><data><value><nil/></value></data></array></value></member></struct></value></data></array>')),
    # --- unknown tags ---
    ('unknown-tag-ignored', call('<foo/><value><int>1</int></value><bar>x</bar>')),
    ('unknown-tag-in-value', v('<data/>')),
    ('unknown-member-in-value', v('<member/>')),
    ('attributes-ignored', b'<methodCall id="1"><methodName a=\'x\' b="y">m</methodName></methodCall>'),
    # --- encodings ---
    ('latin1-declared', b'<?xml version="1.0" encoding="ISO-8859-1"?><methodCall><methodName>caf\xe9</methodName></methodCall>'),
    ('us-ascii-declared', b'<?xml version="1.0" encoding="us-ascii"?><methodCall><methodName>m</methodName><params></params></methodCall>'),
    ('us-ascii-high-byte', b'<?xml version="1.0" encoding="us-ascii"?><methodCall><methodName>\xe9</methodName></methodCall>'),
    ('windows-1252', b'<?xml version="1.0" encoding="windows-1252"?><methodCall><methodName>\x80\x93</methodName></methodCall>'),
    ('windows-1252-undefined-byte', b'<?xml version="1.0" encoding="windows-1252"?>\n<methodCall><methodName>\x81</methodName></methodCall>'),
    ('windows-1251', b'<?xml version="1.0" encoding="windows-1251"?><methodCall><methodName>\xcf\xf0\xe8</methodName></methodCall>'),
    ('cp1250-alias', b'<?xml version="1.0" encoding="CP1250"?><methodCall><methodName>\x8a</methodName></methodCall>'),
    ('koi8-r', b'<?xml version="1.0" encoding="koi8-r"?><methodCall><methodName>\xc1</methodName></methodCall>'),
    ('utf8-alias-high-byte', b'<?xml version="1.0" encoding="utf8"?><methodCall><methodName>\xc3\xa9</methodName></methodCall>'),
    ('utf-8-bom', b'\xef\xbb\xbf<methodCall><methodName>m</methodName></methodCall>'),
    ('utf-16-le-bom', '<?xml version="1.0" encoding="UTF-16"?><methodCall><methodName>\u00e9\u4e2d</methodName></methodCall>'.encode('utf-16')),
    ('utf-16-be-bom', b'\xfe\xff' + '<methodCall><methodName>x\U0001F600</methodName></methodCall>'.encode('utf-16-be')),
    ('utf-16-le-no-bom', '<methodCall><methodName>m</methodName></methodCall>'.encode('utf-16-le')),
    ('utf-16-odd-byte', '<methodCall><methodName>m</methodName></methodCall>'.encode('utf-16-le') + b'\x00'),
    ('utf-16-declared-in-utf8', b'<?xml version="1.0" encoding="UTF-16"?><a/>'),
    ('utf-8-declared-in-utf16', '<?xml version="1.0" encoding="utf-8"?><a/>'.encode('utf-16-le')),
    ('unknown-encoding', b'<?xml version="1.0" encoding="x-nope"?><a/>'),
    ('ebcdic-encoding', b'<?xml version="1.0" encoding="cp037"?><a/>'),
    ('multibyte-encoding', b'<?xml version="1.0" encoding="shift_jis"?><a/>'),
    ('not-text-encoding', b'<?xml version="1.0" encoding="base64"?><a/>'),
    # --- expat errors, with positions ---
    ('bad-utf8-byte', b'<methodCall><methodName>\xff</methodName></methodCall>'),
    ('bad-utf8-second-line', b'<methodCall>\n<methodName>ok \xc3\x28</methodName></methodCall>'),
    ('utf8-surrogate', b'<methodCall><methodName>\xed\xa0\x80</methodName></methodCall>'),
    ('utf8-fffe', b'<methodCall><methodName>\xef\xbf\xbe</methodName></methodCall>'),
    ('utf8-partial-at-end', b'<methodCall><methodName>\xe2\x82'),
    ('utf8-partial-in-tag', b'<methodCall><methodName\xc3'),
    ('control-char-raw', b'<methodCall><methodName>a\x07b</methodName></methodCall>'),
    ('control-char-ref', v('<string>a&#x7;b</string>')),
    ('char-ref-nul', v('<string>&#0;</string>')),
    ('char-ref-surrogate', v('<string>&#xD800;</string>')),
    ('char-ref-too-big', v('<string>&#x110000;</string>')),
    ('char-ref-uppercase-x', v('<string>&#X41;</string>')),
    ('undefined-entity', v('<string>&nbsp;</string>')),
    ('bare-ampersand', v('<string>a & b</string>')),
    ('raw-less-than', v('<string>a < b</string>')),
    ('cdata-end-in-text', v('<string>a]]>b</string>')),
    ('mismatched-tag', b'<methodCall><methodName>m</methodname></methodCall>'),
    ('junk-after-root', b'<methodCall><methodName>m</methodName></methodCall>x'),
    ('second-root', b'<methodCall/><methodCall/>'),
    ('trailing-comment-pi-space', b'<methodCall><methodName>m</methodName></methodCall>\n<!-- c --> <?pi x?>\r\n'),
    ('unclosed-token', b'<methodCall><methodName>m</methodName><params'),
    ('unclosed-root', b'<methodCall><methodName>m</methodName>'),
    ('unclosed-cdata', v('<string><![CDATA[abc')),
    ('unclosed-comment', b'<methodCall><!-- x'),
    ('trailing-cr', b'<methodCall>\r'),
    ('trailing-rsqb', b'<methodCall>]'),
    ('text-before-root', b'hello<methodCall/>'),
    ('less-than-digit', b'<1a/>'),
    ('duplicate-attribute', b'<methodCall a="1" a="2"/>'),
    ('attribute-undefined-entity', b'<methodCall a="&x;"/>'),
    ('attribute-bad-char-ref', b'<methodCall a="&#1;"/>'),
    ('attribute-without-value', b'<methodCall a/>'),
    ('attributes-without-space', b'<methodCall a="1"b="2"/>'),
    ('xml-decl-not-at-start', b' <?xml version="1.0"?><methodCall/>'),
    ('xml-decl-twice', b'<?xml version="1.0"?><?xml version="1.0"?><methodCall/>'),
    ('xml-decl-bad-standalone', b'<?xml version="1.0" standalone="maybe"?><methodCall/>'),
    ('xml-decl-no-version', b'<?xml encoding="utf-8"?><methodCall/>'),
    ('xml-decl-uppercase', b'<?XML version="1.0"?><methodCall/>'),
    ('xml-decl-in-content', b'<methodCall><?xml version="1.0"?></methodCall>'),
    ('xml-decl-single-quotes', b"<?xml version='1.0' encoding='utf-8' standalone='yes' ?><methodCall><methodName>m</methodName></methodCall>"),
    ('element-decl-in-prolog', b'<!ELEMENT a ANY><methodCall/>'),
    ('decl-keyword-latin1-letter-utf8', '<!ELE\u00feMENT a ANY><methodCall/>'.encode('utf-8')),
    ('decl-keyword-latin1-letter-utf16', '<!ELE\u00feMENT a ANY><methodCall/>'.encode('utf-16-be')),
    ('decl-keyword-latin1-letter-latin1', b'<?xml version="1.0" encoding="iso-8859-1"?><!ELE\xfeMENT a ANY><methodCall/>'),
    ('param-entity-in-prolog', b'%pe;<methodCall/>'),
    ('doctype-in-content', b'<methodCall><!DOCTYPE x></methodCall>'),
    ('junk-vs-invalid-utf8-lead', b'<methodCall/><\xc3\x97/>'),
    ('junk-vs-invalid-utf8-trail', b'<methodCall/><\x80/>'),
    ('junk-vs-invalid-utf8-bad-lead', b'<methodCall/><\xc0x/>'),
    ('junk-vs-invalid-utf16-latin1-range', b'\x00<\x00a\x00/\x00>\x00<\x00\x80\x00/\x00>'),
    ('junk-vs-invalid-utf16-above-latin1', '<a/><\u806d/>'.encode('utf-16-be')),
    ('junk-vs-invalid-windows-1252', b'<?xml version="1.0" encoding="windows-1252"?><a/><\x8c/>'),
    ('junk-vs-invalid-latin1-other', b'<?xml version="1.0" encoding="latin1"?><a/><\xd7/>'),
    ('comment-double-dash', b'<methodCall><!-- a -- b --></methodCall>'),
    ('lone-bom-byte', b'\xef'),
    ('lone-nul-byte', b'\x00'),
    ('whitespace-only', b'  \n '),
]


def corpus_cases():
    rows = []
    for path in sorted(glob.glob(os.path.join(ROOT, 'fixtures', 'conformance', 'cases', '*.json'))):
        with open(path) as f:
            case = json.load(f)
        legacy = case.get('legacy') or {}
        if not str(legacy.get('path', '')).startswith('/xmlrpc') or legacy.get('method') != 'POST':
            continue
        body = legacy.get('request_body') or ''
        if (legacy.get('request_body_meta') or {}).get('truncated'):
            continue
        rows.append(('corpus/' + case['id'], body.encode('latin-1' if 'latin1' in case['id'] else 'utf-8')))
    return rows


def row(name, data):
    entry = {'id': name, 'body': base64.b64encode(data).decode()}
    try:
        if len(data) <= 400:  # readable copy of short bodies only
            entry['text'] = data.decode('utf-8')
    except UnicodeDecodeError:
        pass
    entry.update(outcome(data))
    return entry


def main():
    if len(sys.argv) == 4 and sys.argv[1] == '--oracle':
        with open(sys.argv[2]) as f:
            bodies = json.load(f)
        with open(sys.argv[3], 'w') as f:
            json.dump([outcome(base64.b64decode(b)) for b in bodies], f)
        return
    rows = [row(n, d) for n, d in CASES + corpus_cases()]
    ids = [r['id'] for r in rows]
    assert len(ids) == len(set(ids)), 'duplicate case ids'
    meta = {'python': sys.version.split()[0], 'expat': xmlrpc.client.expat.EXPAT_VERSION}
    with open(os.path.join(HERE, 'expat-table.json'), 'w') as f:
        json.dump({'generated_by': 'test/fixtures-xml/gen_expat_table.py', **meta, 'rows': rows}, f, indent=1, ensure_ascii=False)
        f.write('\n')
    print('%d rows' % len(rows))


if __name__ == '__main__':
    main()
