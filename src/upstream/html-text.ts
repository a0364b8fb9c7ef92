/**
 * Text from the HTML Odoo renders with QWeb (markupsafe escaping: `&amp;` `&lt;` `&gt;` `&#34;`
 * `&#39;`), read back as the string the template was given.
 */

const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Decodes character references (`&#39;`, `&#x27;`, `&amp;` …); an unknown name stays as written. */
export function unescapeHtml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return named[ref.toLowerCase()] ?? whole;
  });
}
