// Runs every workspace's pending summary alarm before a test file ends (a setup file of the workers
// project). A write schedules its workspace's summary push to the Directory 2 s later
// (src/hosts/workspace/workspace-object.ts). Left pending, that alarm can fire while the file's environment is
// being torn down; its RPC then fails as an unhandled rejection, which fails the run though every test
// passed. Run here, while the environment is whole, each push lands as it would in a deployment.
import { listDurableObjectIds, runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll } from "vitest";

afterAll(async () => {
  // All at once: one after another, a file with hundreds of workspaces waited on each in turn.
  const ids = await listDurableObjectIds(env.WORKSPACES);
  await Promise.all(ids.map((id) => runDurableObjectAlarm(env.WORKSPACES.get(id))));
});
