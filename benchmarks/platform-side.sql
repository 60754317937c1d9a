-- The platform's side of the rules runs of the last benchmark run (twenty-eighth series,
-- docs/benchmarks.md): from the moment each event reached the node (rz_event.received_at) to the
-- moment its command was written (rz_invocation.sent_at, before the commit and the publish),
-- over the last 60 s of events (the measured phase, which ends the load), split into the wait for
-- a routing worker (received_at -> routed_at) and the routing transaction's work (routed_at ->
-- sent_at). run.sh stops its own PostgreSQL and leaves its data until the next run; to read it:
--
--   runuser -u postgres -- /usr/lib/postgresql/15/bin/pg_ctl -D /tmp/ringzero-bench-pg-18862 -w start
--   psql -h 127.0.0.1 -p 18862 -U postgres -d ringzero_bench -f benchmarks/platform-side.sql
--   runuser -u postgres -- /usr/lib/postgresql/15/bin/pg_ctl -D /tmp/ringzero-bench-pg-18862 -m fast -w stop
--
-- (runuser only where the script ran as root; the server's bin directory is Debian's.)
with last as (select max(received_at) m from rz_event),
lat as (
  select extract(epoch from (i.sent_at - e.received_at)) * 1000 total,
         extract(epoch from (e.routed_at - e.received_at)) * 1000 queue,
         extract(epoch from (i.sent_at - e.routed_at)) * 1000 work
  from rz_event e
  join rz_run r on r.event_id = e.id
  join rz_invocation i on i.run_id = r.id, last
  where e.received_at > last.m - interval '60 seconds')
select count(*) runs,
  round(percentile_cont(0.5) within group (order by total)::numeric, 1) p50_ms,
  round(percentile_cont(0.95) within group (order by total)::numeric, 1) p95_ms,
  round(percentile_cont(0.99) within group (order by total)::numeric, 1) p99_ms,
  round(percentile_cont(0.999) within group (order by total)::numeric, 1) p999_ms,
  round(max(total)::numeric, 1) max_ms,
  round(percentile_cont(0.5) within group (order by queue)::numeric, 1) queue_p50_ms,
  round(percentile_cont(0.99) within group (order by queue)::numeric, 1) queue_p99_ms,
  round(percentile_cont(0.5) within group (order by work)::numeric, 1) work_p50_ms,
  round(percentile_cont(0.99) within group (order by work)::numeric, 1) work_p99_ms
from lat;
