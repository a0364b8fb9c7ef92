/**
 * The corpus's db scenario as the runner replays it: the database-manager steps the recorder took
 * off the record (a copy made, a restore, clean-up drops), done on the simulator right before the
 * first case whose recorded answer shows their effect, and one ordering fact the answers show.
 * Every step goes through the simulator's own `/web/database/*` routes with the master password the
 * recorded server had at that point (the default, `admin`).
 */
import type { HttpAnswer } from './replay.ts';

/** The simulator's database manager over HTTP, as the recorder's browser used it. */
export interface SimDatabaseOps {
  submit(route: 'duplicate' | 'drop', fields: Record<string, string>): Promise<void>;
  backup(name: string, format?: 'zip' | 'dump'): Promise<Buffer>;
  restore(fields: Record<string, string>, file: { filename: string; data: Buffer }): Promise<HttpAnswer>;
}

/** One step the corpus does not show, run before `before`. */
export interface DatabaseStep {
  before: string;
  what: string;
  why: string;
  run(ops: SimDatabaseOps): Promise<void>;
}

const master = 'admin';
const duplicate = (name: string, newName: string) => (ops: SimDatabaseOps) =>
  ops.submit('duplicate', { master_pwd: master, name, new_name: newName });
const drop =
  (...names: string[]) =>
  async (ops: SimDatabaseOps) => {
    for (const name of names) await ops.submit('drop', { master_pwd: master, name });
  };

/** The steps, in scenario order. */
export const databaseSteps: readonly DatabaseStep[] = [
  {
    before: 'db-duplicate_database-exists-xmlrpc2',
    what: 'duplicate gw2 to gw3',
    why: 'the case duplicates onto an existing gw3, which db-rename-ok-xmlrpc2 then renames; no case shows gw3 being made',
    run: duplicate('gw2', 'gw3'),
  },
  {
    before: 'db-dump-zip-xmlrpc2',
    what: 'copy gw3 to gw4 and drop gw3',
    why: "the recorded rename's effect (db-rename-ok-xmlrpc2), which the gateway cannot reproduce on 19.0 (COMPATIBILITY.md); the dumps read gw4",
    run: async (ops) => {
      await duplicate('gw3', 'gw4')(ops);
      await drop('gw3')(ops);
    },
  },
  {
    before: 'db-restore-existing-xmlrpc2',
    what: 'restore the zip backup of gw4 as gw5',
    why: 'db-list-after-restore-xmlrpc2 lists gw5 and db-restore-existing-xmlrpc2 restores onto it; the ~9 s restore after the dumps is not in the corpus',
    run: async (ops) => {
      const answer = await ops.restore(
        { master_pwd: master, name: 'gw5', copy: 'true' },
        { filename: 'gw4.zip', data: await ops.backup('gw4') },
      );
      if (answer.status !== 303) throw new Error(`restoring gw5 answered HTTP ${answer.status}`);
    },
  },
  {
    before: 'db-list-final-xmlrpc2',
    what: 'drop gw5 and gw6b',
    why: 'the recorder dropped them at the end (notes of db-restore-garbage-xmlrpc2 and db-create_database-badlang-xmlrpc2); the list is back to gw, gw2',
    run: drop('gw5', 'gw6b'),
  },
  {
    before: 'webdb-duplicate-exists',
    what: 'duplicate gw2 to gw8',
    why: 'the case duplicates onto an existing gw8, whose backup webdb-restore-ok restores; no case shows gw8 being made',
    run: duplicate('gw2', 'gw8'),
  },
];

/** Ordering facts inside one second of the db scenario (merged into `orderHints`). */
export const databaseOrderHints: readonly { first: string; then: string; why: string }[] = [
  {
    first: 'db-restore-garbage-xmlrpc2',
    then: 'db-list-after-restore-xmlrpc2',
    why: 'the list shows gw5x, the empty database the garbage restore left behind',
  },
];

/** The simulator's `/web/database/*` at `simUrl`, for the steps and the stand-in restore. */
export function simDatabaseOps(simUrl: string): SimDatabaseOps {
  const post = (route: string, body: URLSearchParams | FormData) =>
    fetch(`${simUrl}/web/database/${route}`, { method: 'POST', body, redirect: 'manual' });
  const answerOf = async (res: Response): Promise<HttpAnswer> => {
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      headers[k] = v;
    });
    return { status: res.status, headers, contentType: res.headers.get('content-type') ?? '', body: await res.text() };
  };
  return {
    async submit(route, fields) {
      const res = await post(route, new URLSearchParams(fields));
      if (res.status !== 303) throw new Error(`/web/database/${route} ${JSON.stringify(fields.name)} answered HTTP ${res.status}`);
      await res.arrayBuffer();
    },
    async backup(name, format = 'zip') {
      const res = await post('backup', new URLSearchParams({ master_pwd: master, name, backup_format: format }));
      if (res.status !== 200) throw new Error(`backing up ${name} answered HTTP ${res.status}`);
      return Buffer.from(await res.arrayBuffer());
    },
    async restore(fields, file) {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append('backup_file', new Blob([file.data], { type: 'application/zip' }), file.filename);
      return answerOf(await post('restore', form));
    },
  };
}

/** Runs the steps due before `caseId`; returns one runner note per step. */
export async function runDatabaseSteps(caseId: string, simUrl: string): Promise<string[]> {
  const notes: string[] = [];
  for (const step of databaseSteps.filter((s) => s.before === caseId)) {
    await step.run(simDatabaseOps(simUrl));
    notes.push(`stand-in database step: ${step.what} (${step.why})`);
  }
  return notes;
}
