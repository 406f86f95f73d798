/**
 * DBOS recovers a worker's pending sessions inside `DBOS.launch()` (executor.init() dispatches them before launch
 * returns). A recovered session must find everything it reads already set up, however fast DBOS dispatches it.
 */
import { describe, expect, it, vi } from 'vitest';

type Workflow = (sessionId: string, input: unknown) => Promise<unknown>;
const recovered: Promise<unknown>[] = [];

vi.mock('../../../src/dbos/load-dbos.ts', () => {
  let workflow: Workflow | undefined;
  const DBOS = {
    registerWorkflow: (fn: Workflow) => ((workflow = fn), fn),
    setConfig: () => undefined,
    // As DBOS does: recovery starts a pending session during launch, before launch returns.
    launch: async () => {
      recovered.push(workflow!('session-recovered', null).catch((error: unknown) => error));
    },
    runStep: (work: () => Promise<unknown>) => work(),
    shutdown: async () => undefined,
  };
  const DBOSClient = {
    // A client takes a round trip to create; the recovered session is already running meanwhile.
    create: async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return {
        listWorkflowSteps: async () => {
          throw new Error('recorded steps read through the client');
        },
        destroy: async () => undefined,
      };
    },
  };
  return { loadDbosModule: async () => ({ DBOS, DBOSClient }), loadDbos: async () => DBOS };
});

const { launchDbosSessions } = await import('../../../src/dbos/dbos-sessions.ts');

describe('a session DBOS recovers during launch', () => {
  it('reads its recorded steps once the client exists instead of failing on it', async () => {
    const sessions = await launchDbosSessions({
      systemDatabaseUrl: 'postgres://unused',
      session: () => ({ prompt: 'hi' }),
    });
    expect(recovered).toHaveLength(1);
    const error = await recovered[0];
    expect(String(error)).toContain('recorded steps read through the client');
    await sessions.shutdown();
  });
});
