/**
 * A call's context for a unit test, built by the real constructors of src/call.ts (never a partial
 * object cast to `CallOrigin`): values of its own that the layers can write into, and a signal.
 */
import { callCaller, ownCallOrigin, type CallCaller, type CallClient, type CallOrigin } from '../../src/call.ts';

export interface TestCallOriginOptions extends Partial<CallClient> {
  /** Aborted when the test says so; default: never. */
  signal?: AbortSignal;
  /**
   * The database a legacy service decoded from the call, set as its caller (`callCaller`) the way
   * `src/legacy/` does, for a layer that reads it (`callDatabase`); default: none set, as for a
   * request the gateway makes for itself.
   */
  database?: string;
  /** The whole caller, when the test needs its login or uid too (wins over `database`). */
  caller?: CallCaller;
}

/**
 * A client call's context: `ownCallOrigin`'s (this host, no client, request id `test`) with the
 * client facts the test names.
 */
export function testCallOrigin(options: TestCallOriginOptions = {}): CallOrigin {
  const { signal, database, caller, ...client } = options;
  const origin: CallOrigin = { ...ownCallOrigin('test', signal), ...client };
  const named = caller ?? (database === undefined ? undefined : { database });
  if (named !== undefined) origin.values.set(callCaller, named);
  return origin;
}
