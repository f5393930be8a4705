#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for trying playtune's Slurm executor and
# for its end-to-end test: slurmctld and slurmd on localhost, no systemd, no cgroups,
# no accounting (read state from squeue and the tasks' own output).
#
#   scripts/slurm-test-cluster.sh start [CPUS]   # install (Debian: slurm-wlm, munge), start
#   scripts/slurm-test-cluster.sh stop
#
# CPUS (default: the real core count) is what the node declares: more than the real
# cores simulates a larger node (tasks then share the real cores). Needs root (or
# sudo) for apt-get and for running munged as the munge user.
set -euo pipefail
STATE=${PLAYTUNE_SLURM_DIR:-/tmp/playtune-slurm}
cmd=${1:-start}
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo -n"; fi

stop() {
  for p in slurmd slurmctld; do $SUDO pkill -x "$p" 2>/dev/null || true; done
  $SUDO pkill -x munged 2>/dev/null || true
  # They take a few seconds to shut down; a restart must not meet the old ones.
  for _ in $(seq 1 20); do
    # (pgrep -x takes one name at a time: a pattern of over 15 characters matches none.)
    pgrep -x slurmd >/dev/null || pgrep -x slurmctld >/dev/null || pgrep -x munged >/dev/null \
      || return 0
    sleep 0.5
  done
}

if [ "$cmd" = stop ]; then
  stop
  exit 0
fi
[ "$cmd" = start ] || { echo "usage: $0 start [CPUS] | stop" >&2; exit 2; }
CPUS=${2:-$(nproc)}

if ! command -v sbatch >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
  $SUDO apt-get update
  $SUDO apt-get install -y --no-install-recommends slurm-wlm munge
fi
stop
host=$(hostname -s)
user=$(id -un)
mkdir -p "$STATE"/{spool,state,log}

# munge: a key, then the daemon as the munge user.
$SUDO mkdir -p /etc/munge /var/run/munge /var/log/munge /var/lib/munge
if [ ! -s /etc/munge/munge.key ]; then $SUDO mungekey -c -f; fi
$SUDO chown -R munge:munge /etc/munge /var/run/munge /var/log/munge /var/lib/munge
$SUDO chmod 0700 /etc/munge
$SUDO -u munge munged 2>/dev/null || $SUDO runuser -u munge -- munged

mem=$(awk '/MemTotal/ {print int($2 / 1024 * 0.8)}' /proc/meminfo)
conf="$STATE/slurm.conf"
cat > "$conf" <<CONF
ClusterName=playtune-test
SlurmctldHost=$host
SlurmUser=$user
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$STATE/state
SlurmdSpoolDir=$STATE/spool
SlurmctldPidFile=$STATE/slurmctld.pid
SlurmdPidFile=$STATE/slurmd.pid
SlurmctldLogFile=$STATE/log/slurmctld.log
SlurmdLogFile=$STATE/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
ReturnToService=2
MpiDefault=none
# Trust the declared CPUs over the hardware: a simulated larger node.
SlurmdParameters=config_overrides
MaxArraySize=100001
MaxJobCount=100000
NodeName=$host CPUs=$CPUS RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF
# Debian's tools read /etc/slurm/slurm.conf unless SLURM_CONF says otherwise: point it
# at this cluster's, unless a real cluster's configuration is there.
export SLURM_CONF="$conf"
if [ ! -e /etc/slurm/slurm.conf ] || [ -L /etc/slurm/slurm.conf ]; then
  $SUDO mkdir -p /etc/slurm && $SUDO ln -sfn "$conf" /etc/slurm/slurm.conf || true
fi
# -c: a new cluster each start, without the jobs of an earlier one.
$SUDO env SLURM_CONF="$conf" slurmctld -c
$SUDO env SLURM_CONF="$conf" slurmd -c
for _ in $(seq 1 30); do
  if sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
    echo "slurm up: node $host with $CPUS CPUs; export SLURM_CONF=$conf"
    exit 0
  fi
  sleep 1
done
echo "slurm did not come up; see $STATE/log/" >&2
exit 1
