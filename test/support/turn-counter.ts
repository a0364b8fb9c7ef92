/** Counts turns of the event loop (one per check phase, through setImmediate) until `stop()`, which answers the count. */
export function turnCounter(): { stop(): number } {
  let turns = 0;
  let running = true;
  const spin = () => {
    turns++;
    if (running) setImmediate(spin);
  };
  setImmediate(spin);
  return {
    stop() {
      running = false;
      return turns;
    },
  };
}
