/**
 * Text inside `<string>` and `<name>` as Odoo's marshaller writes it: Python's `escape()` (`&`, `<`,
 * `>`), plus, for strings only, `OdooMarshaller.dump_unicode`'s removal of the control characters
 * XML 1.0 forbids (TAB, LF and CR stay).
 */

// eslint-disable-next-line no-control-regex -- the C0 controls XML 1.0 forbids
const needsWorkRe = /[&<>\x00-\x08\x0b\x0c\x0e-\x1f]/;
// eslint-disable-next-line no-control-regex -- the C0 controls XML 1.0 forbids
const controlRe = /[\x00-\x08\x0b\x0c\x0e-\x1f]/g;

function escape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** A string value's text: control characters dropped, then escaped. */
export function stringText(text: string): string {
  return needsWorkRe.test(text) ? escape(text.replace(controlRe, '')) : text;
}

/** A struct member name's text: escaped, control characters kept (`dump_struct` does not strip them). */
export function nameText(name: string): string {
  return needsWorkRe.test(name) ? escape(name) : name;
}
