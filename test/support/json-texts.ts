/**
 * Random JSON texts for differential tests of the readers that work on JSON text without building
 * values (the XML-RPC transcoder, the canonical-form check): documents whose values have many
 * spellings (escapes, whitespace, number forms, repeated names, lone surrogates), and texts damaged
 * once.
 */
import fc from 'fast-check';

/** A JSON document as a tree of already-spelled tokens, so one value has many texts. */
type Doc = { obj: [string, Doc][] } | { arr: Doc[] } | { token: string };

const space = fc.constantFrom('', '', '', ' ', '\n', '\t', '\r', '  ');
const charPool = [
  'a',
  'Z',
  '0',
  ' ',
  '&',
  '<',
  '>',
  '"',
  '\\',
  '/',
  '\x00',
  '\x01',
  '\x1f',
  '\b',
  '\f',
  '\t',
  '\n',
  '\r',
  '\x7f',
  'é',
  '€',
  '😀',
  '\ud800',
  '\udc00',
  '\ufffe',
  '\u2028',
];

const shortEscapes: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '/': '\\/',
};

/**
 * A string literal: each character raw where JSON allows it, else in its short escape if it has
 * one, else as `\uXXXX`; or, when picked, escaped anyway (`\uXXXX` in either case of hex digits).
 */
const stringLiteral = fc.array(fc.tuple(fc.constantFrom(...charPool), fc.boolean()), { maxLength: 8 }).map((chars) => {
  let out = '"';
  for (const [ch, escape] of chars) {
    for (const unit of Array.from({ length: ch.length }, (_, i) => ch.charCodeAt(i))) {
      const c = String.fromCharCode(unit);
      const hex = unit.toString(16).padStart(4, '0');
      const u = `\\u${unit % 3 === 0 ? hex.toUpperCase() : hex}`;
      if (escape) out += unit % 2 === 0 && shortEscapes[c] !== undefined ? shortEscapes[c] : u;
      else if (c === '"' || c === '\\' || unit < 0x20) out += shortEscapes[c] ?? u;
      else out += c;
    }
  }
  return `${out}"`;
});

const numberLiteral = fc.oneof(
  fc.constantFrom(
    '0',
    '-0',
    '2147483647',
    '2147483648',
    '-2147483648',
    '-2147483649',
    '9007199254740991',
    '9007199254740993',
    '-99999999999999999999',
    '1e400',
    '-0.0',
    '5e-324',
    '1.7976931348623157e308',
  ),
  fc
    .tuple(fc.boolean(), fc.integer({ min: 1, max: 9 }), fc.stringMatching(/^[0-9]{0,22}$/))
    .map(([neg, lead, rest]) => `${neg ? '-' : ''}${lead}${rest}`),
  fc
    .tuple(
      fc.boolean(),
      fc.stringMatching(/^(0|[1-9][0-9]{0,6})$/),
      fc.option(fc.stringMatching(/^[0-9]{1,6}$/)),
      fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.stringMatching(/^[0-9]{1,3}$/))),
    )
    .map(([neg, int, frac, exp]) => `${neg ? '-' : ''}${int}${frac === null ? '' : `.${frac}`}${exp === null ? '' : exp.join('')}`),
);

const names = fc.oneof(
  stringLiteral,
  fc.constantFrom('"a"', '"b"', '"id"', '"\\u0061"', '"__proto__"', '"1"', '"a&b"', '"<k>"', '"k\\u0001"', '"é"'),
);

const { doc } = fc.letrec<{ doc: Doc }>((tie) => ({
  doc: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    stringLiteral.map((token) => ({ token })),
    numberLiteral.map((token) => ({ token })),
    fc.constantFrom('true', 'false', 'null', 'NaN', 'Infinity', '-Infinity').map((token) => ({ token })),
    fc.array(tie('doc'), { maxLength: 5 }).map((arr) => ({ arr })),
    fc.array(fc.tuple(names, tie('doc')), { maxLength: 5 }).map((obj) => ({ obj })),
  ),
}));

/** A JSON text: a random document spelled with random whitespace. */
export const jsonText = fc.tuple(doc, fc.infiniteStream(space)).map(([d, spaces]) => {
  const ws = () => spaces.next().value as string;
  const spell = (x: Doc): string => {
    if ('token' in x) return x.token;
    if ('arr' in x) return `[${ws()}${x.arr.map((item) => spell(item) + ws()).join(`,${ws()}`)}]`;
    return `{${ws()}${x.obj.map(([k, v]) => `${k}${ws()}:${ws()}${spell(v)}${ws()}`).join(`,${ws()}`)}}`;
  };
  return ws() + spell(d) + ws();
});

/** A text damaged once: a character dropped, one put in, or the end cut off. */
export const damagedJsonText = fc
  .tuple(
    jsonText,
    fc.nat(),
    fc.constantFrom('drop', 'insert', 'cut'),
    fc.constantFrom('"', ',', ':', '[', ']', '{', '}', '\\', 'x', '1', '.', 'e', '-', ' '),
  )
  .map(([t, at, how, ch]) => {
    const i = t.length === 0 ? 0 : at % t.length;
    if (how === 'drop') return t.slice(0, i) + t.slice(i + 1);
    if (how === 'insert') return t.slice(0, i) + ch + t.slice(i);
    return t.slice(0, i);
  });
