#!/usr/bin/env bash
# MCP conformance: starts `wrangler dev` (dev auth, throwaway storage) on a free 127.0.0.1 port, under
# the process guard so that it never outlives this script, runs the required scenarios of
# @modelcontextprotocol/conformance at every spec version that applies to them, against the baseline
# conformance/expected-failures.yml, and always stops wrangler.
#
# Counts are check results as the suite records them (a check id the suite emits several times counts
# each time). "failed" means unexpected: a failing check not in the baseline, a baselined check that
# now passes (stale entry), or a run that produced no results. Baselined failures are "expected".
# The last line is machine-readable: `conformance: N passed, N failed`. Exit status 1 if N failed > 0.
# See docs/ci.md.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT" || exit 1
# wrangler needs Node >= 22: the `node` devDependency (Node 24) must win over the machine's node.
export PATH="$ROOT/node_modules/.bin:$PATH"
NODE="$ROOT/node_modules/.bin/node"
SUITE="$ROOT/node_modules/@modelcontextprotocol/conformance/dist/index.js"
BASELINE="${CONFORMANCE_EXPECTED_FAILURES:-conformance/expected-failures.yml}"
SCENARIOS=(server-initialize server-stateless ping http-header-validation dns-rebinding-protection caching json-schema-2020-12 tools-list tools-call-error resources-list resources-read-text resources-read-binary resources-templates-read sep-2164-resource-not-found prompts-list prompts-get-simple prompts-get-with-args prompts-get-embedded-resource prompts-get-with-image)
# Each scenario runs at each of these; the suite itself skips a version a scenario does not apply to.
SPEC_VERSIONS=(2025-11-25 2026-07-28)
HEALTH_TIMEOUT_S=60
SCENARIO_TIMEOUT_MS=60000

# Keep everything on 127.0.0.1: no telemetry, no update check (banner), no Request.cf download.
export WRANGLER_SEND_METRICS=false DO_NOT_TRACK=1 WRANGLER_HIDE_BANNER=true CLOUDFLARE_CF_FETCH_ENABLED=false
export NO_COLOR=1 FORCE_COLOR=0 CI="${CI:-true}"

for f in "$NODE" "$SUITE" "$ROOT/node_modules/.bin/wrangler" "$BASELINE"; do
  if [[ ! -e "$f" ]]; then
    echo "conformance: missing $f (run npm ci first)" >&2
    echo "conformance: 0 passed, 1 failed"
    exit 1
  fi
done

WORK="$(mktemp -d "${TMPDIR:-/tmp}/branchmind-conformance.XXXXXX")"
WRANGLER_PID=""
WRANGLER_LOG="$WORK/wrangler.log"

cleanup() {
  if [[ -n "$WRANGLER_PID" ]]; then
    # The guard leads wrangler's process group (set -m below): stop it, wrangler and workerd.
    kill -TERM -- "-$WRANGLER_PID" 2>/dev/null || kill -TERM "$WRANGLER_PID" 2>/dev/null
    for _ in $(seq 50); do
      kill -0 -- "-$WRANGLER_PID" 2>/dev/null || break
      sleep 0.2
    done
    kill -KILL -- "-$WRANGLER_PID" 2>/dev/null
    wait "$WRANGLER_PID" 2>/dev/null
    WRANGLER_PID=""
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

free_port() {
  "$NODE" -e 'const s=require("node:net").createServer();s.listen(0,"127.0.0.1",()=>{process.stdout.write(String(s.address().port));s.close()})'
}

healthy() {
  "$NODE" -e 'fetch(process.argv[1],{signal:AbortSignal.timeout(2000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))' "$1"
}

PORT="$(free_port)"
INSPECTOR_PORT="$(free_port)"
while [[ "$INSPECTOR_PORT" == "$PORT" ]]; do INSPECTOR_PORT="$(free_port)"; done
BASE="http://127.0.0.1:$PORT"
mkdir -p "$WORK/state" "$WORK/results"

echo "conformance: starting wrangler dev on $BASE (log: $WRANGLER_LOG)"
# wrangler runs under the process guard (scripts/lib/process-guard.ts), like every server a script or a
# test starts: the guard reads a pipe whose only writer is this script (fd 3), so however the script
# ends, `kill -9` included, the pipe closes and the guard stops wrangler and workerd with it.
GUARD_PIPE="$WORK/guard.pipe"
mkfifo "$GUARD_PIPE"
set -m # the guard leads its own process group, so cleanup can stop it, wrangler and workerd together
"$NODE" scripts/lib/process-guard.ts node_modules/.bin/wrangler dev --ip 127.0.0.1 --port "$PORT" \
  --inspector-ip 127.0.0.1 --inspector-port "$INSPECTOR_PORT" \
  --var AUTH_MODE:dev --persist-to "$WORK/state" --show-interactive-dev-session=false \
  <"$GUARD_PIPE" >"$WRANGLER_LOG" 2>&1 &
WRANGLER_PID=$!
set +m
# Out of the job table: the guard ends by killing its own group, which bash would report as "Killed".
disown "$WRANGLER_PID"
exec 3>"$GUARD_PIPE"
echo "conformance: server group $WRANGLER_PID"

started=$SECONDS
until healthy "$BASE/health"; do
  if ! kill -0 "$WRANGLER_PID" 2>/dev/null; then
    echo "conformance: wrangler exited before /health answered; its log:" >&2
    cat "$WRANGLER_LOG" >&2
    echo "conformance: 0 passed, 1 failed"
    exit 1
  fi
  if ((SECONDS - started >= HEALTH_TIMEOUT_S)); then
    echo "conformance: /health did not answer within ${HEALTH_TIMEOUT_S}s; wrangler log:" >&2
    cat "$WRANGLER_LOG" >&2
    echo "conformance: 0 passed, 1 failed"
    exit 1
  fi
  sleep 0.5
done
echo "conformance: server ready after $((SECONDS - started))s"

# Classifies one run's checks.json against the baseline (same rules as the suite's --expected-failures:
# per-check entries "<scenario>:<check-id>" or whole-scenario entries "<scenario>").
# Prints: passed failed expected skipped, then one line per failing check.
CLASSIFY='
const fs = require("node:fs"), path = require("node:path");
const [dir, scenario, baselineFile] = process.argv.slice(1);
const entries = fs.readFileSync(baselineFile, "utf8").split("\n")
  .map((l) => l.replace(/#.*$/, "").trim()).filter((l) => l.startsWith("- "))
  .map((l) => l.slice(2).trim().replace(/^["\x27]|["\x27]$/g, ""));
const whole = entries.includes(scenario);
const ids = new Set(entries.filter((e) => e.startsWith(scenario + ":")).map((e) => e.slice(scenario.length + 1)));
const files = fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).filter((f) => path.basename(String(f)) === "checks.json") : [];
if (files.length === 0) { console.log("none"); process.exit(0); }
const checks = JSON.parse(fs.readFileSync(path.join(dir, String(files[0])), "utf8"));
let passed = 0, failed = 0, expected = 0, skipped = 0; const lines = [];
const bad = (s) => s === "FAILURE" || s === "WARNING";
for (const c of checks) {
  if (c.status === "SUCCESS") passed++;
  else if (bad(c.status)) {
    const ok = whole || ids.has(c.id);
    if (ok) expected++; else failed++;
    lines.push(`    ${ok ? "expected  " : "UNEXPECTED"} ${c.status} ${c.id}: ${c.errorMessage ?? c.description ?? ""}`.replace(/\s+$/, ""));
  } else skipped++;
}
// A baselined check that now passes everywhere it occurs is a stale entry: the suite fails the run.
for (const id of ids) {
  const seen = checks.filter((c) => c.id === id && c.status !== "INFO");
  if (seen.length > 0 && seen.every((c) => c.status === "SUCCESS")) {
    failed++; lines.push(`    STALE      ${id}: baselined but passing; remove it from the baseline`);
  }
}
if (whole && !checks.some((c) => bad(c.status))) { failed++; lines.push(`    STALE      ${scenario}: baselined but passing; remove it from the baseline`); }
console.log(`${passed} ${failed} ${expected} ${skipped}`);
for (const l of lines) console.log(l);
'

total_passed=0
total_failed=0
total_expected=0
summary=()
details=()
for scenario in "${SCENARIOS[@]}"; do
  ran_any=0
  for version in "${SPEC_VERSIONS[@]}"; do
    out="$WORK/results/$scenario@$version"
    log="$WORK/results/$scenario@$version.log"
    mkdir -p "$out"
    "$NODE" "$SUITE" server --url "$BASE/mcp" --scenario "$scenario" --spec-version "$version" \
      --expected-failures "$BASELINE" --timeout "$SCENARIO_TIMEOUT_MS" -o "$out" >"$log" 2>&1
    rc=$?
    if [[ $rc -eq 0 ]] && grep -q "^SKIPPED: scenario '$scenario' is not applicable" "$log"; then
      summary+=("$(printf '%-26s %-10s  n/a (not applicable at this spec version)' "$scenario" "$version")")
      continue
    fi
    ran_any=1
    result="$("$NODE" -e "$CLASSIFY" "$out" "$scenario" "$BASELINE")"
    read -r passed failed expected skipped <<<"$(head -n1 <<<"$result")"
    if [[ "$passed" == "none" ]]; then
      passed=0 failed=1 expected=0 skipped=0
      result="none"$'\n'"    UNEXPECTED the suite produced no checks.json (exit $rc)"
    elif [[ $rc -ne 0 && $failed -eq 0 ]]; then
      failed=1
      result+=$'\n'"    UNEXPECTED the suite exited $rc although every failure is baselined"
    fi
    total_passed=$((total_passed + passed))
    total_failed=$((total_failed + failed))
    total_expected=$((total_expected + expected))
    verdict="ok"
    ((failed > 0)) && verdict="FAIL"
    summary+=("$(printf '%-26s %-10s  %3d passed, %d failed, %d expected, %d skipped  %s' \
      "$scenario" "$version" "$passed" "$failed" "$expected" "$skipped" "$verdict")")
    if (($(wc -l <<<"$result") > 1)); then
      details+=("$scenario @ $version:" "$(tail -n +2 <<<"$result")")
    fi
    if ((failed > 0)); then
      echo "---- conformance output for $scenario @ $version (exit $rc) ----"
      cat "$log"
      echo "---- end of $scenario @ $version ----"
    fi
  done
  if ((ran_any == 0)); then
    summary+=("$(printf '%-26s %-10s  FAIL: applies to none of %s' "$scenario" "-" "${SPEC_VERSIONS[*]}")")
    total_failed=$((total_failed + 1))
  fi
done

if ((total_failed > 0)); then
  echo "---- wrangler log (last 60 lines) ----"
  tail -n 60 "$WRANGLER_LOG"
fi

echo
echo "=== conformance summary (checks; baseline $BASELINE) ==="
printf '%s\n' "${summary[@]}"
if ((${#details[@]} > 0)); then
  echo
  echo "failing checks:"
  printf '%s\n' "${details[@]}"
fi
echo
echo "expected failures (baselined): $total_expected"
echo "conformance: $total_passed passed, $total_failed failed"
((total_failed == 0))
