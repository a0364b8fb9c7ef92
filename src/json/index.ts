/** Lossless JSON for every JSON text the gateway reads or writes (design §2). */
export { JsonSyntaxError, parseJson, type ParseJsonOptions } from './parse.ts';
export { stringifyJson, type StringifyJsonOptions } from './stringify.ts';
