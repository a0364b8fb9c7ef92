"""Writes test/fixtures-xml/python-numbers.json: CPython 3.11's answers for the text conversions the
XML-RPC decoder and the object service reproduce: int(), float(), repr(str), str(Decimal()),
datetime.strptime(_, '%Y%m%dT%H:%M:%S') and base64.decodebytes(). The unit tests replay it.

Usage (repository root): python3 test/fixtures-xml/gen_python_numbers.py
"""
import base64
import datetime
import decimal
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

INTS = [
    ' 42 ', '-0', '+7', '007', '1_000', '1__0', '_1', '1_', '', ' ', '-', '+-1', '- 1', '\u00a012\u2003', '\u0661\u0662',
    '\uff11\uff12', '\x0b9\x0c', '\x1c5', '1\x00', '12a', '1.5', '0x10', '9007199254740991', '9007199254740992',
    '-9007199254740993', '123456789012345678901234567890', "it's", 'a"b', 'x\'y"z', '\u00e9\u200b', '\U0001f600',
    'tab\tnl\nbs\\', 'a' * 250, '9' * 4300, '9' * 4301, '1_' * 4300 + '1', '9' * 4301 + 'x', '1\u0663', '\u2028',
    '\U0001D7CE\U0001D7D9', '\x85 3', '1_000_000_000_000_000_000',
]
FLOATS = [
    '1E3', ' 2.5 ', 'inf', '-Infinity', 'INFINITY', 'nan', '-nan', '+.5', '5.', '1_0.5', '1__0', '1_e5', '1e1_0', '_1',
    '1e', '', '1.5.2', '0x10', '1e500', '-0', '\u0661.\u0665', '1e-400', '2240', 'infinit', '3.14\x00', '0.1',
    '1e16', '123456789012345678', ' \u3000-2.5e-3\u2028 ',
]
REPRS = [
    '', 'abc', "it's", 'say "hi"', 'both \' and "', 'back\\slash', 'tab\tnewline\ncr\r', '\x00\x07\x1f\x7f',
    '\x80\x9f\xa0\xad\xe9', '\u200b\u2028\u3000', '\ud7ff\ue000\uf8ff', '\U0001F600\U000E0001', '\u0378', '日本語',
]
DECIMALS = [
    '1.50', '1E3', '1_000', '_1', ' 1.5 ', 'Infinity', '-inf', 'nan', 'sNaN12', 'NaN0012', '1e-7', '0.000001',
    '0E+3', '-0', '123E-10', '1.', '.5', '\u0661\u0662', '1e999999999999999999', '1e1000000000000000000',
    '12e-1000000000000000000', '1 2', 'x', '', '-.5E-3', '00012.3400', '0.0E-7', '123456789E-12', '\x1c7\x1f',
]
DATETIMES = [
    '20240102T03:04:05', '2024011t3:4:5', '2024-01-02T03:04:05', '20240102T03:04:05Z', ' 20240102T03:04:05',
    '20240230T03:04:05', '20230229T00:00:00', '20240229T23:59:59', '20240101T03:04:61', '20240101T03:04:60',
    '00000101T00:00:00', '2024 1 1T1:1:1', '\u0662\u0660\u0662\u0664\u0660\u0661\u0660\u0662T03:04:05', '',
    "20240102T03:04:05'x",
]
BASE64 = [
    'aGVsbG8=', 'aGVsbG8', 'aGVs\nbG8=\n', 'aGV*sbG8=', 'aGk=aGk=', 'QQ=', 'QUJDRA5', 'QQ', 'QR==', '=QQ==', 'Q=Q==',
    'QUI=Q', '', '====', 'é', 'ab€€c', 'a\U0001F600',
]


def attempt(fn, text):
    try:
        return {'ok': fn(text)}
    except Exception as e:  # noqa: BLE001
        return {'error': type(e).__name__, 'message': str(e)}


def main():
    table = {
        'generated_by': 'test/fixtures-xml/gen_python_numbers.py',
        'python': sys.version.split()[0],
        'int': [[t, attempt(lambda s: str(int(s)), t)] for t in INTS],
        'float': [[t, attempt(lambda s: repr(float(s)), t)] for t in FLOATS],
        'repr': [[t, repr(t)] for t in REPRS],
        'decimal': [[t, attempt(lambda s: str(decimal.Decimal(s)), t)] for t in DECIMALS],
        'datetime': [[t, attempt(lambda s: str(datetime.datetime.strptime(s, '%Y%m%dT%H:%M:%S')), t)] for t in DATETIMES],
        'base64': [[t, attempt(lambda s: base64.b64encode(base64.decodebytes(s.encode('ascii'))).decode(), t)] for t in BASE64],
    }
    with open(os.path.join(HERE, 'python-numbers.json'), 'w') as f:
        json.dump(table, f, indent=1, ensure_ascii=True)
        f.write('\n')


if __name__ == '__main__':
    main()
