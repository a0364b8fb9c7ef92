/**
 * Labels for names clients choose: databases and models. A name becomes its own label once a call
 * naming it succeeded (Odoo accepted it, so it exists there), up to `max` names; any other name (a
 * typo, a probe, one past the cap) is `other`. The series stay bounded whatever clients send, and a
 * dashboard still sees the real databases and models by name.
 */
import { otherLabel } from './labels.ts';

/** One label's names. */
export interface SeenLabels {
  /** The label for `name` in a call that `succeeded` or not. */
  label(name: string, succeeded: boolean): string;
}

export function createSeenLabels(max: number): SeenLabels {
  const seen = new Set<string>();
  return {
    label(name, succeeded) {
      if (seen.has(name)) return name;
      // `other` itself stays the bucket of the unknown, whatever a database or model is called
      if (!succeeded || seen.size >= max || name === '' || name === otherLabel) return otherLabel;
      seen.add(name);
      return name;
    },
  };
}
