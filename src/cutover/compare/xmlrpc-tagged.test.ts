import { describe, expect, it } from 'vitest';
import { PyFloat } from '../../value.ts';
import {
  decodeXmlText,
  parseTaggedCall,
  parseTaggedResponse,
  renderTagged,
  taggedToValue,
  XmlrpcShapeError,
  type Tagged,
} from './xmlrpc-tagged.ts';

const response = (value: string) =>
  `<?xml version="1.0"?>\n<methodResponse>\n<params>\n<param>\n${value}\n</param>\n</params>\n\n</methodResponse>\n`;

function result(xml: string): Tagged {
  const r = parseTaggedResponse(xml);
  if (r.kind !== 'params' || r.params[0] === undefined) throw new Error('no result');
  return r.params[0];
}

describe('parseTaggedResponse()', () => {
  it.each([
    ['<value><int>44</int></value>', 'int', '44'],
    ['<value><double>2240.0</double></value>', 'double', '2240.0'],
    ['<value><boolean>1</boolean></value>', 'boolean', '1'],
    ['<value><string>a &amp; &lt;b&gt;</string></value>', 'string', 'a & <b>'],
    ['<value><string><![CDATA[<]]>x</string></value>', 'string', '<x'],
    ['<value><ex:nil/></value>', 'nil', ''],
    ['<value><dateTime.iso8601>20000101T00:00:00</dateTime.iso8601></value>', 'dateTime.iso8601', '20000101T00:00:00'],
  ])('keeps the tag of %s', (xml, tag, text) => {
    expect(result(response(xml))).toMatchObject({ kind: 'scalar', tag, text, untyped: false });
  });

  it('reads untyped and empty values as untyped strings, whitespace kept', () => {
    expect(result(response('<value> gw </value>'))).toMatchObject({ tag: 'string', text: ' gw ', untyped: true });
    expect(result(response('<value/>'))).toMatchObject({ tag: 'string', text: '', untyped: true });
  });

  it('keeps struct member order and nesting', () => {
    const v = result(
      response(
        '<value><struct>\n<member>\n<name>b</name>\n<value><int>1</int></value>\n</member>\n<member>\n<name>a</name>\n<value><array><data>\n<value><int>2</int></value>\n</data></array></value>\n</member>\n</struct></value>',
      ),
    );
    expect(renderTagged(v)).toBe('{"b": <int>"1", "a": [<int>"2"]}');
  });

  it('reads empty arrays and structs in both spellings', () => {
    expect(result(response('<value><array><data/></array></value>'))).toMatchObject({ kind: 'array', items: [] });
    expect(result(response('<value><array><data>\n</data></array></value>'))).toMatchObject({ kind: 'array', items: [] });
    expect(result(response('<value><struct/></value>'))).toMatchObject({ kind: 'struct', members: [] });
  });

  it('reads a fault', () => {
    const r = parseTaggedResponse(
      '<?xml version="1.0"?>\n<methodResponse>\n<fault>\n<value><struct>\n<member>\n<name>faultCode</name>\n<value><int>3</int></value>\n</member>\n<member>\n<name>faultString</name>\n<value><string>Access Denied</string></value>\n</member>\n</struct></value>\n</fault>\n\n</methodResponse>\n',
    );
    expect(r.kind).toBe('fault');
    expect(r.kind === 'fault' && renderTagged(r.fault)).toBe('{"faultCode": <int>"3", "faultString": <string>"Access Denied"}');
  });

  it('records the source span of each scalar text', () => {
    const xml = response('<value><int>44</int></value>');
    const v = result(xml);
    expect(xml.slice(...v.span)).toBe('44');
  });

  it.each([
    ['<methodResponse><params><param><value><int>1</int></value></param></params>', 'truncated'],
    ['<html><body>502</body></html>', 'not XML-RPC'],
    ['<methodResponse><params><param><value><int>1</int></value></param></params></methodResponse>trailing', 'trailing text'],
    ['<methodResponse><params><param><value>x<int>1</int></value></param></params></methodResponse>', 'mixed content'],
  ])('refuses %j (%s)', (xml) => {
    expect(() => parseTaggedResponse(xml)).toThrow(XmlrpcShapeError);
  });
});

describe('parseTaggedCall()', () => {
  it('reads the method name and the span of each param value', () => {
    const xml =
      "<?xml version='1.0'?>\n<methodCall>\n<methodName>login</methodName>\n<params>\n<param>\n<value><string>gw</string></value>\n</param>\n<param>\n<value><string>admin</string></value>\n</param>\n</params>\n</methodCall>\n";
    const call = parseTaggedCall(xml);
    expect(call.methodName).toBe('login');
    expect(call.params.map((p) => xml.slice(...p.span))).toEqual([
      '<value><string>gw</string></value>',
      '<value><string>admin</string></value>',
    ]);
  });

  it('accepts a call without <params>', () => {
    expect(parseTaggedCall('<methodCall><methodName>version</methodName></methodCall>').params).toEqual([]);
  });
});

describe('taggedToValue()', () => {
  it('keeps int vs double and struct order', () => {
    const v = taggedToValue(
      result(
        response(
          '<value><struct><member><name>x</name><value><double>1.0</double></value></member><member><name>n</name><value><i8>5000000000</i8></value></member></struct></value>',
        ),
      ),
    );
    expect(v).toEqual(
      new Map<string, unknown>([
        ['x', new PyFloat(1)],
        ['n', 5000000000],
      ]),
    );
  });
});

describe('decodeXmlText()', () => {
  it('resolves predefined entities and character references', () => {
    expect(decodeXmlText('&lt;&#65;&#x42;&quot;&apos;&gt;&amp;')).toBe('<AB"\'>&');
  });
  it('refuses other named entities', () => {
    expect(() => decodeXmlText('&nbsp;')).toThrow(XmlrpcShapeError);
  });
});
