/** Lossless JSON for every JSON text the gateway reads or writes (docs/architecture.md §2). */
export { isCanonicalJson } from './canonical.ts';
export { JsonSyntaxError, parseJson, parseJsonString, type ParseJsonOptions } from './parse.ts';
export { stringifyJson, stringifyJsonBytes, type StringifyJsonOptions } from './stringify.ts';
export { emptyNameHash, hashName, MemberNames } from './member-names.ts';
