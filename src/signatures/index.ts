/**
 * Signatures: which named parameters a legacy positional call maps to, and Python's TypeError texts
 * when it does not fit (docs/architecture.md §4).
 */
export { bindArguments } from './bind.ts';
export { modelAbsent, type ModelAbsent } from './signature.ts';
export { isPrivateMethod } from './private-methods.ts';
export {
  builtinTable,
  isBuiltinModel,
  lookupBuiltinSignature,
  type BuiltinTable,
  type ParamRow,
  type SignatureRow,
} from './builtin-table.ts';
export { createSignatureResolver, type SignatureResolver, type SignatureResolverOptions, type SignatureSource } from './resolver.ts';
export { createSignatureResolverFromConfig, type ResolverFromConfigOptions } from './from-config.ts';
export { createDiscoverySource, type DiscoveryOptions, type FetchDoc } from './discovery.ts';
export { parseDocMethods, signatureFromDoc } from './doc-signatures.ts';
export { loadOverridesFile } from './overrides-file.ts';
export { createOverridesSource } from './overrides.ts';
export { validateOverrides, type OverrideTable } from './validate-overrides.ts';
export { classNameFromModel, methodFromQualname, qualnameFromModel } from './qualname.ts';
export {
  hasDefault,
  paramKinds,
  type MethodSignature,
  type Param,
  type ParamKind,
  type SignatureSourceName,
  type UpstreamChange,
} from './signature.ts';
export { changedMethodFault, createUpstreamChanges, meaningDiffers, paramsText, type UpstreamChanges } from './upstream-changes.ts';

// Internal: CPython's binding simulation, exported for tests and diagnostics only.
export { bindPythonCall, type PythonBinding, type PythonBindingError } from './python-call.ts';
