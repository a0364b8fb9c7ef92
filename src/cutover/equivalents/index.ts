/** The JSON-2 way off legacy and what breaks next: equivalents, placeholders, deprecations. */
export { json2EquivalentOf, type CalledMethod, type Json2Equivalent } from './json2-equivalent.ts';
export { placeholderBody } from './placeholders.ts';
export { deprecatedMethodNames, deprecationOf, type DeprecationEntry, type DeprecationTable } from './deprecations.ts';
export { replacementOf, type Replacement } from './replacements.ts';
