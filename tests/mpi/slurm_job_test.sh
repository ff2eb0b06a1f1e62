#!/usr/bin/env bash
# scripts/slurm-job under a real, one-node Slurm started here (Debian's slurm-wlm and munge, which
# scripts/setup installs): 2 host ranks through srun, one gathered results file, the report.
# Needs root (slurmd runs jobs as their user, munged's key is /etc/munge); exit 77 (ctest: skipped)
# otherwise. Usage: slurm_job_test.sh RIDGELINE_BIN SWEEP.json
set -euo pipefail
bin=$1 sweep=$2
say() { printf 'slurm_job_test: %s\n' "$*" >&2; }
[ "$(id -u)" -eq 0 ] || { say "needs root to start slurmctld, slurmd and munged; skipped"; exit 77; }
for tool in slurmctld slurmd sbatch munged; do
  command -v "$tool" >/dev/null || { say "$tool missing: run scripts/setup (it installs slurm-wlm)"; exit 1; }
done
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d /tmp/ridgeline-slurm-XXXXXX)
host=$(hostname)
export SLURM_CONF=$work/slurm.conf
cleanup() {
  for d in slurmd slurmctld; do
    if [ -f "$work/$d.pid" ]; then kill "$(cat "$work/$d.pid")" 2>/dev/null || true; fi
  done
  sleep 1
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work"/{state,spool,log,out}
# Ports of our own, so a site's Slurm on this machine is never touched.
cat >"$SLURM_CONF" <<CONF
ClusterName=ridgeline-test
SlurmctldHost=$host
AuthType=auth/munge
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
SlurmctldPort=26817
SlurmdPort=26818
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=pmix
ReturnToService=2
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=ridgeline Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
# munged: the machine's own when it runs; else started here with a key made once. It outlives
# this test, so it gets none of the descriptors above 2 the test was handed: a caller's lock (a
# `flock FILE ctest`) or pipe would otherwise stay held by the daemon after ctest ends.
without_inherited_fds() {
  (
    for fd in /proc/self/fd/*; do
      n=${fd##*/}
      [ "$n" -gt 2 ] && eval "exec $n>&-"
    done 2>/dev/null
    exec "$@"
  )
}
if ! munge -n >/dev/null 2>&1; then
  mkdir -p /etc/munge /run/munge /var/log/munge /var/lib/munge
  [ -s /etc/munge/munge.key ] || dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null
  chown -R munge:munge /etc/munge /run/munge /var/log/munge /var/lib/munge
  chmod 400 /etc/munge/munge.key
  without_inherited_fds runuser -u munge -- /usr/sbin/munged ||
    without_inherited_fds /usr/sbin/munged --force
fi
slurmctld -i
slurmd
for _ in $(seq 30); do sinfo -h -o %t 2>/dev/null | grep -q idle && break; sleep 1; done
sinfo -h -o %t | grep -q idle || { say "the node never became idle"; tail -n 20 "$work"/log/*.log >&2; exit 1; }

# OMPI_ALLOW_RUN_AS_ROOT: srun starts the ranks as root here.
rc=0
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 240 \
  sbatch --wait --nodes=1 --ntasks-per-node=2 --output="$work/job.log" \
  "$root/scripts/slurm-job" "$bin" "$work/out" --profile "$sweep" --probe bandwidth,fma || rc=$?
cat "$work/job.log" >&2 || true
[ "$rc" -eq 0 ] || { say "sbatch --wait exit $rc"; tail -n 20 "$work"/log/*.log >&2; exit 1; }
python3 - "$work/out" <<'PY'
import json, sys
out = sys.argv[1]
doc = json.load(open(out + "/results.json"))
assert doc["complete"], "results.json is not complete"
assert doc["mpi"]["size"] == 2, doc["mpi"]
ranks = {}
for p in doc["points"]:
    ranks.setdefault(p["name"], set()).add(p["rank"])
assert ranks and all(r == {0, 1} for r in ranks.values()), ranks
report = open(out + "/report.md").read()
assert "## MPI job" in report and "2 ranks on 1 node" in report, report[:2000]
print(f"slurm_job_test: {len(doc['points'])} points from 2 ranks under srun, report written")
PY
