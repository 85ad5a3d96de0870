#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fftbloom on a real farm scheduler: a private Slurm cluster on localhost (munged with its own key and socket,
# slurmctld and slurmd as root, state in a temporary folder, no systemd, no cgroups) runs a job array of fftbloom
# shards (--shard slurm) over a small shot. One task is killed and requeued after its first frame, as a preempted
# task is; its second run resumes. Checks that every frame was written exactly once, by one task, and equals a
# single-process run bit for bit; then stops the daemons by PID and removes the folder.
# Usage: slurm_test.sh FFTBLOOM FFTBLOOM_PSF. Exit 0 passed, 1 failed, 77 skipped (not root).
set -euo pipefail

fftbloom=$1
psf=$2
frames=8
tasks=4

if [ "$(id -u)" -ne 0 ]; then
    echo "farm.slurm skipped: a private Slurm cluster runs slurmctld, slurmd and munged as root"
    exit 77
fi
for tool in munged munge slurmctld slurmd sbatch squeue scontrol sinfo; do
    command -v "$tool" > /dev/null || { echo "farm.slurm: $tool missing (cmake/install-deps.sh installs it)"; exit 1; }
done

work=$(mktemp -d /tmp/fftbloom-slurm.XXXXXX) # mode 700, as munged requires of its socket's folder
fail() {
    echo "farm.slurm: $*"
    for log in "$work"/*.log "$work"/logs/*; do
        [ -f "$log" ] && { echo "--- $log"; tail -n 20 "$log"; }
    done
    exit 1
}
stop() {
    [ -f "$work/slurm.conf" ] && SLURM_CONF=$work/slurm.conf scancel --quiet --full --user=root 2> /dev/null || true
    local pids=()
    for daemon in slurmd slurmctld munged; do
        [ -f "$work/$daemon.pid" ] && pids+=("$(cat "$work/$daemon.pid")")
    done
    for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null || true; done
    for pid in "${pids[@]}"; do
        for _ in $(seq 50); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
    done
    rm -rf "$work"
}
trap stop EXIT

# Two free TCP ports on localhost for slurmctld and slurmd.
ports=()
for port in $(seq $((20000 + RANDOM % 20000)) 45000); do
    (exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null || ports+=("$port")
    [ ${#ports[@]} -eq 2 ] && break
done

dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge.key"
munged --force --socket="$work/munge.socket" --key-file="$work/munge.key" --log-file="$work/munged.log" \
    --pid-file="$work/munged.pid" --seed-file="$work/munged.seed" || fail "munged did not start"

node=$(hostname -s)
mkdir -p "$work/state" "$work/spool" "$work/logs" "$work/shot" "$work/out" "$work/single"
cat > "$work/slurm.conf" << EOF
ClusterName=fftbloom
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=${ports[0]}
SlurmdPort=${ports[1]}
AuthType=auth/munge
AuthInfo=socket=$work/munge.socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=batch_sched_delay=0,sched_interval=1,bf_interval=1
KillWait=1
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=farm Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$work/slurm.conf
slurmctld -i || fail "slurmctld did not start"
slurmd || fail "slurmd did not start"
for _ in $(seq 100); do
    sinfo -h -o %T 2> /dev/null | grep -q idle && break
    sleep 0.1
done
sinfo -h -o %T | grep -q idle || fail "the node did not become idle"

# The shot: small frames that differ (point spread functions of 3 to 10 iris blades).
for i in $(seq 0 $((frames - 1))); do
    "$psf" --size 64 --blades $((i + 3)) --wavelengths 16 -o "$work/shot/shot.$((1001 + i)).exr" > /dev/null
done

# A task of the array; task 1's first run blooms one frame of its shard and is then killed and requeued.
cat > "$work/task.sh" << 'EOF'
#!/usr/bin/env bash
set -euo pipefail
fftbloom=$1 shot=$2 out=$3
echo "task $SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_TASK_COUNT, run ${SLURM_RESTART_COUNT:-0}"
if [ "$SLURM_ARRAY_TASK_ID" = 1 ] && [ "${SLURM_RESTART_COUNT:-0}" = 0 ]; then
    "$fftbloom" "$shot/shot.1002.exr" --out-dir "$out" --kernel-size 16 -v
    scontrol requeue "${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}"
    sleep 600
fi
exec "$fftbloom" "$shot"/*.exr --out-dir "$out" --shard slurm --kernel-size 16 -v
EOF
job=$(sbatch --parsable --array=0-$((tasks - 1)) --requeue --output="$work/logs/%a.out" --open-mode=append \
    "$work/task.sh" "$fftbloom" "$work/shot" "$work/out") || fail "sbatch refused the job array"
echo "farm.slurm: job array $job, $tasks tasks over $frames frames"
# A requeued job waits until its begin time, now + 2 minutes: the test starts it at once.
for _ in $(seq 600); do
    squeue -h -j "$job" 2> /dev/null | grep -q . || break
    if squeue -h -j "${job}_1" -o %r 2> /dev/null | grep -q BeginTime; then
        scontrol update JobId="${job}_1" StartTime=now
    fi
    sleep 0.1
done
squeue -h -j "$job" 2> /dev/null | grep -q . && fail "the job array did not finish within a minute"

"$fftbloom" "$work/shot"/*.exr --out-dir "$work/single" --kernel-size 16 > /dev/null || fail "single-process run"
grep -q "run 1" "$work/logs/1.out" || fail "task 1 was not requeued"
grep -q "shot.1002.exr: skipped" "$work/logs/1.out" || fail "task 1's second run did not resume"
for i in $(seq 0 $((frames - 1))); do
    name=shot.$((1001 + i)).exr
    written=$(cat "$work"/logs/*.out | grep -c -- "-> $work/out/$name " || true)
    [ "$written" -eq 1 ] || fail "$name written $written times"
    cmp -s "$work/out/$name" "$work/single/$name" || fail "$name differs from the single-process run"
done
[ "$(ls "$work/out" | wc -l)" -eq "$frames" ] || fail "out holds other files: $(ls "$work/out")"
echo "farm.slurm: $frames frames written once each by $tasks tasks (one killed and requeued), equal to one process"
