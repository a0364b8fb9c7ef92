/** Back-pressure for the simulator's streamed answers. */
import type { ServerResponse } from 'node:http';

/** Resolves when `res` can take more data or its connection closed (listeners removed either way). */
export function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
