#!/usr/bin/env bash
# Integration test on a real scheduler: the embedded default workflow through the SLURM profile.
#
#   sudo bash tests/cluster/run_slurm_test.sh          # as root, from anywhere; Debian/Ubuntu
#
# 1. Installs Debian's slurm-wlm and munge with apt-get when their commands are missing.
# 2. Starts a private one-node cluster on localhost: munged, slurmctld and slurmd in the foreground
#    under this script (their PIDs recorded), with their own key, socket, ports, state and logs in a
#    temporary folder; no cgroups (proctrack/linuxproc, task/none), no slurmdbd; the node has the
#    machine's real CPUs and memory (slurmd -C).
# 3. Runs the embedded default workflow twice, each in a fresh copy of the repository
#    (tests/conftest.py copy_workflow), at the same time: locally with --cores 2 and the corpus
#    counted in one shard, and through `--profile profiles/slurm` with the corpus counted in
#    BIOSEM_CLUSTER_SHARDS shards (`--set-scatter corpus=N`; shard jobs grouped by the profile).
# 4. Compares the sha256 of every file under results/ and checks that the SLURM run's corpus counts
#    ran as N shard jobs (tests/cluster/compare_results.py --shards N).
# On exit, success or not, SLURM jobs are cancelled and every daemon started here is stopped by PID.
# The whole test is bounded by BIOSEM_CLUSTER_TIMEOUT seconds (default 1500); each step gets what
# is left of it through `timeout`.
#
# Environment: BIOSEM_CLUSTER_TIMEOUT (seconds, default 1500), BIOSEM_CLUSTER_KEEP=1 (keep the work
# folder), BIOSEM_CLUSTER_TARGETS (space-separated targets; default: the workflow's default target),
# BIOSEM_CLUSTER_SHARDS (corpus shards of the SLURM run, default 3; the local run keeps 1),
# PYTHON (default: python3 of the active or the repository's .venv), NLTK_DATA.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUDGET="${BIOSEM_CLUSTER_TIMEOUT:-1500}"
KEEP="${BIOSEM_CLUSTER_KEEP:-0}"
SHARDS="${BIOSEM_CLUSTER_SHARDS:-3}"
T0=$SECONDS

WORK=""
LOCAL_PID=""
POLICY_RC_CREATED=0
DAEMON_NAMES=()
DAEMON_PIDS=()

log() { printf '[cluster-test %4ds] %s\n' "$((SECONDS - T0))" "$*" >&2; }
die() { log "FAIL: $*"; exit 1; }

remaining() {
    local left=$((BUDGET - (SECONDS - T0)))
    ((left > 0)) || die "time budget of ${BUDGET}s exhausted"
    echo "$left"
}

# Run a command bounded by what is left of the budget (and by $1 seconds at most if $1 > 0).
bounded() {
    local cap=$1 left
    shift
    left=$(remaining)
    ((cap > 0 && cap < left)) && left=$cap
    timeout --kill-after=20 "$left" "$@"
}

# ------------------------------------------------------------------------------------------------
# Cleanup: cancel jobs, stop the daemons by PID, remove leftovers of this cluster only.

alive() { kill -0 "$1" 2>/dev/null; }

# PIDs of processes that belong to this test cluster: slurmd's children (slurmstepd) carry the
# marker BIOSEM_SLURM_TEST=<work dir>; job processes carry SLURM_CONF=<work dir>/slurm.conf together
# with SLURM_JOB_ID. This script itself and its other children have neither combination.
cluster_leftovers() {
    local environ pid vars
    for environ in /proc/[0-9]*/environ; do
        pid=${environ#/proc/}
        pid=${pid%/environ}
        [[ $pid == "$$" || $pid == "$BASHPID" ]] && continue
        vars=$({ tr '\0' '\n' <"$environ"; } 2>/dev/null) || continue
        if grep -qxF "BIOSEM_SLURM_TEST=$WORK" <<<"$vars" ||
            { grep -qxF "SLURM_CONF=$WORK/slurm.conf" <<<"$vars" && grep -q '^SLURM_JOB_ID=' <<<"$vars"; }; then
            echo "$pid"
        fi
    done
}

stop_pid() {
    local name=$1 pid=$2 i
    alive "$pid" || return 0
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 30; i++)); do
        alive "$pid" || break
        sleep 0.5
    done
    if alive "$pid"; then
        log "$name (pid $pid) ignored SIGTERM; sending SIGKILL"
        kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
}

cleanup() {
    local rc=$? i pid leftovers
    set +e
    trap - EXIT INT TERM
    if ((${#DAEMON_PIDS[@]})) && [[ -f $WORK/slurm.conf ]]; then
        # Cancel whatever is still queued or running, then give slurmd time to reap it.
        local jobs
        jobs=$(timeout 10 squeue -h -o %i 2>/dev/null)
        [[ -n $jobs ]] && timeout 20 scancel --full --quiet $jobs 2>/dev/null
        for ((i = 0; i < 30; i++)); do
            [[ -z $(timeout 5 squeue -h -o %i 2>/dev/null) ]] && break
            sleep 1
        done
    fi
    if [[ -n $LOCAL_PID ]] && alive "$LOCAL_PID"; then
        log "stopping the local run (pid $LOCAL_PID)"
        stop_pid "local snakemake run" "$LOCAL_PID"
    fi
    # Stop in reverse order of start: slurmd, slurmctld, munged.
    for ((i = ${#DAEMON_PIDS[@]} - 1; i >= 0; i--)); do
        stop_pid "${DAEMON_NAMES[i]}" "${DAEMON_PIDS[i]}"
    done
    if [[ -n $WORK ]]; then
        leftovers=$(cluster_leftovers)
        if [[ -n $leftovers ]]; then
            log "stopping leftover processes of this cluster: $(echo $leftovers)"
            for pid in $leftovers; do stop_pid leftover "$pid"; done
        fi
    fi
    for ((i = 0; i < ${#DAEMON_PIDS[@]}; i++)); do
        if alive "${DAEMON_PIDS[i]}"; then
            log "ERROR: ${DAEMON_NAMES[i]} (pid ${DAEMON_PIDS[i]}) still running"
            rc=1
        else
            log "stopped ${DAEMON_NAMES[i]} (pid ${DAEMON_PIDS[i]})"
        fi
    done
    if ((POLICY_RC_CREATED)); then
        rm -f /usr/sbin/policy-rc.d
    fi
    if [[ -n $WORK ]]; then
        if ((rc == 0)) && [[ $KEEP != 1 ]]; then
            rm -rf "$WORK"
        else
            log "work folder kept: $WORK"
        fi
    fi
    if ((rc == 0)); then log "PASS in $((SECONDS - T0))s"; else log "exit status $rc"; fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ------------------------------------------------------------------------------------------------
# 1. Install

SLURM_COMMANDS=(slurmctld slurmd munged mungekey sbatch srun squeue scancel sinfo scontrol)

install_slurm() {
    local missing=() cmd
    for cmd in "${SLURM_COMMANDS[@]}"; do
        command -v "$cmd" >/dev/null || missing+=("$cmd")
    done
    if ((${#missing[@]} == 0)); then
        log "slurm-wlm and munge already installed ($(slurmctld -V))"
        return
    fi
    ((EUID == 0)) || die "missing ${missing[*]}; run as root to install slurm-wlm and munge with apt-get"
    command -v apt-get >/dev/null || die "missing ${missing[*]} and no apt-get (Debian/Ubuntu only)"
    # Keep the packages' init scripts from starting system-wide daemons during installation.
    if [[ ! -e /usr/sbin/policy-rc.d ]]; then
        printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
        chmod 755 /usr/sbin/policy-rc.d
        POLICY_RC_CREATED=1
    fi
    log "installing slurm-wlm and munge with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    bounded 600 apt-get update -qq
    bounded 900 apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
    if ((POLICY_RC_CREATED)); then
        rm -f /usr/sbin/policy-rc.d
        POLICY_RC_CREATED=0
    fi
    for cmd in "${SLURM_COMMANDS[@]}"; do
        command -v "$cmd" >/dev/null || die "$cmd still missing after installing slurm-wlm and munge"
    done
    log "installed $(slurmctld -V)"
}

# ------------------------------------------------------------------------------------------------
# 2. A one-node cluster on localhost

free_ports() {
    "$PYTHON" - <<'EOF'
import socket
socks = [socket.socket() for _ in range(2)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in socks))
for s in socks:
    s.close()
EOF
}

# Start "$@" in the background (foreground mode of the daemon) and record its PID.
start_daemon() {
    local name=$1
    shift
    "$@" >"$WORK/log/$name.out" 2>&1 &
    DAEMON_NAMES+=("$name")
    DAEMON_PIDS+=("$!")
    log "started $name (pid $!)"
}

wait_until() {
    local what=$1 seconds=$2 i
    shift 2
    for ((i = 0; i < seconds * 2; i++)); do
        if "$@" >/dev/null 2>&1; then return 0; fi
        for ((j = 0; j < ${#DAEMON_PIDS[@]}; j++)); do
            alive "${DAEMON_PIDS[j]}" || die "${DAEMON_NAMES[j]} exited; see $WORK/log/${DAEMON_NAMES[j]}.out"
        done
        sleep 0.5
    done
    die "$what not ready after ${seconds}s"
}

node_idle() { [[ $(sinfo -h -N -o %T | head -1) == idle ]]; }

start_cluster() {
    local node_line node ports
    WORK=$(mktemp -d /tmp/biosem-slurm.XXXXXX)
    chmod 755 "$WORK"
    mkdir -p "$WORK"/{log,state,spool,munge-key,munge-run}
    chmod 700 "$WORK/munge-key"
    chmod 711 "$WORK/munge-run"
    mungekey --create --keyfile="$WORK/munge-key/munge.key"
    chmod 400 "$WORK/munge-key/munge.key"
    start_daemon munged munged --foreground --force \
        --socket="$WORK/munge-run/munge.socket" --key-file="$WORK/munge-key/munge.key" \
        --pid-file="$WORK/munge-run/munged.pid" --seed-file="$WORK/munge-key/munged.seed" \
        --log-file="$WORK/log/munged.log"
    wait_until munged 20 test -S "$WORK/munge-run/munge.socket"

    node_line=$(slurmd -C | head -1)  # NodeName=<host> CPUs=.. Boards=.. ... RealMemory=..
    node=${node_line%% *}
    node=${node#NodeName=}
    NODE_CPUS=$(sed -n 's/.* CPUs=\([0-9]*\).*/\1/p' <<<"$node_line")
    NODE_MEM_MB=$(sed -n 's/.* RealMemory=\([0-9]*\).*/\1/p' <<<"$node_line")
    read -r ctld_port slurmd_port < <(free_ports)
    cat >"$WORK/slurm.conf" <<EOF
# One-node test cluster written by tests/cluster/run_slurm_test.sh
ClusterName=biosemtest
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$WORK/munge-run/munge.socket
CredType=cred/munge
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/log/slurmctld.log
SlurmdLogFile=$WORK/log/slurmd.log
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
# Finished jobs stay visible to squeue (the profile's status command) for 10 minutes.
MinJobAge=600
InactiveLimit=0
KillWait=10
NodeName=$node NodeAddr=127.0.0.1 ${node_line#NodeName=$node } State=UNKNOWN
PartitionName=biosemtest Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
    export SLURM_CONF="$WORK/slurm.conf"
    # The executor's job step (snakemake-executor-plugin-slurm-jobstep) starts `srun` with every
    # SLURM_* variable but the job's identity removed, SLURM_CONF included; clusters keep slurm.conf
    # at its default path (or run configless), this private one does not. A shim first on PATH
    # (exported to the jobs by sbatch --export=ALL) points srun at this cluster's file.
    mkdir -p "$WORK/bin"
    printf '#!/bin/sh\nexport SLURM_CONF=%q\nexec %q "$@"\n' "$SLURM_CONF" "$(command -v srun)" >"$WORK/bin/srun"
    chmod 755 "$WORK/bin/srun"
    export PATH="$WORK/bin:$PATH"
    start_daemon slurmctld slurmctld -D -f "$SLURM_CONF"
    wait_until slurmctld 30 scontrol ping
    start_daemon slurmd env BIOSEM_SLURM_TEST="$WORK" slurmd -D -f "$SLURM_CONF"
    wait_until "node $node" 60 node_idle
    log "cluster up: node $node, $NODE_CPUS CPUs, $NODE_MEM_MB MB, ports $ctld_port/$slurmd_port"
    # Smoke test: a batch job with a job step started as the executor's job step starts it.
    (cd "$WORK" && bounded 120 sbatch --wait --quiet --mem 100 --output "$WORK/log/smoke.out" \
        --wrap 'env -u SLURM_CONF srun --ntasks=1 echo smoke-ok') || die "smoke job failed; see $WORK/log"
    grep -qx smoke-ok "$WORK/log/smoke.out" || die "smoke job printed $(cat "$WORK/log/smoke.out")"
    log "smoke job ran"
}

# ------------------------------------------------------------------------------------------------
# 3. The workflow, locally and on the cluster

copy_repo() {
    (cd "$REPO" && "$PYTHON" - "$1" <<'EOF'
import sys
from pathlib import Path

sys.path.insert(0, "tests")
from conftest import copy_workflow  # noqa: E402

dest = Path(sys.argv[1])
dest.mkdir(parents=True)
copy_workflow(dest)
EOF
    )
}

read -r -a TARGETS <<<"${BIOSEM_CLUSTER_TARGETS:-}"
SNAKEMAKE_ARGS=("${TARGETS[@]}" --configfile config/config.yaml config/test/config.yaml config/test-paths.yaml --quiet rules)

# The local run goes on in the background while the SLURM run waits on the scheduler; its PID is
# that of `timeout`, which passes a SIGTERM on to snakemake.
start_local() {
    local left
    copy_repo "$WORK/local"
    left=$(remaining)
    (cd "$WORK/local" && exec timeout --kill-after=20 "$left" "$PYTHON" -m snakemake --cores 2 \
        "${SNAKEMAKE_ARGS[@]}" >"$WORK/log/snakemake-local.log" 2>&1) &
    LOCAL_PID=$!
    log "local run started: snakemake --cores 2 (pid $LOCAL_PID)"
}

finish_local() {
    local rc=0
    wait "$LOCAL_PID" || rc=$?
    LOCAL_PID=""
    if ((rc != 0)); then
        tail -n 60 "$WORK/log/snakemake-local.log" >&2
        die "local run failed (exit status $rc)"
    fi
    log "local run done"
}

run_slurm() {
    copy_repo "$WORK/slurm"
    log "SLURM run: snakemake --profile profiles/slurm --set-scatter corpus=$SHARDS"
    # Site settings of this test cluster: no accounts, node size, quick status polling. The memory
    # cap (--resources) is the node's memory, so no request exceeds it.
    (cd "$WORK/slurm" && bounded 0 "$PYTHON" -m snakemake --profile profiles/slurm \
        --cores "$NODE_CPUS" --resources mem_mb="$NODE_MEM_MB" --slurm-no-account \
        --seconds-between-status-checks 5 --slurm-init-seconds-before-status-checks 2 \
        "${SNAKEMAKE_ARGS[@]}" --set-scatter corpus="$SHARDS") >"$WORK/log/snakemake-slurm.log" 2>&1 || {
        tail -n 80 "$WORK/log/snakemake-slurm.log" >&2
        tail -n 20 "$WORK/log/slurmctld.log" >&2 || true
        die "SLURM run failed"
    }
    local states
    states=$(squeue --states=all -h -o %T | sort | uniq -c | tr -s ' ' | paste -sd, -)
    log "SLURM run done; job states (including the smoke job): $states"
    (($(squeue --states=all -h -o %T | grep -c COMPLETED) > 1)) || die "no workflow job ran on SLURM"
}

# ------------------------------------------------------------------------------------------------

# Not inside a SLURM job of another cluster: this cluster is the only one these commands see.
unset $(compgen -e | grep "^SLURM_") 2>/dev/null || true

if [[ -z ${PYTHON:-} ]]; then
    if [[ -z ${VIRTUAL_ENV:-} && -x $REPO/.venv/bin/python3 ]]; then
        PYTHON=$REPO/.venv/bin/python3
        export PATH="$REPO/.venv/bin:$PATH"
    else
        PYTHON=python3
    fi
fi
export NLTK_DATA="${NLTK_DATA:-$REPO/../shared/data/nltk_data}"
"$PYTHON" -c "import snakemake_executor_plugin_slurm" 2>/dev/null ||
    die "$PYTHON lacks snakemake-executor-plugin-slurm (pip install -e '.[slurm]')"

install_slurm
start_cluster
start_local
run_slurm
finish_local
log "comparing results/ of the two runs (local: 1 corpus shard; SLURM: $SHARDS)"
# The default target runs both corpus counts; other targets may not, so their shards are not checked.
SHARD_CHECK=()
[[ -z ${BIOSEM_CLUSTER_TARGETS:-} ]] && SHARD_CHECK=(--shards "$SHARDS" --logs "$WORK/slurm/logs")
bounded 300 "$PYTHON" "$REPO/tests/cluster/compare_results.py" "$WORK/local/results" "$WORK/slurm/results" \
    "${SHARD_CHECK[@]}"
