-- 0018_step_leases_by_holder: the live leases of one agent, found from the agent (docs/tasks.md "Step
-- leases"): the capsule asks for the lease its caller holds on every portal call, whatever the number of
-- leases other agents hold.
CREATE INDEX step_leases_by_holder ON step_leases (holder, expires_tick);
