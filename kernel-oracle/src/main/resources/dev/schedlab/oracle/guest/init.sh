#!/bin/busybox sh
# The guest's /init: mounts the pseudo file systems, copies what the oracle compares into /tmp/out,
# runs the workload between two schedstat/softirq snapshots and prints /tmp/out as base64 of a
# tar.gz between markers on the serial console. The harness fills in the @...@ fields.
/bin/busybox mkdir -p /sbin /usr/bin /usr/sbin /tmp
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t tmpfs tmpfs /tmp
echo "schedlab-oracle: booted, collecting topology"
O=/tmp/out
# Few processes: every fork is slow under TCG. busybox cp reads sysfs files to their end.
copy() {
  src=$1
  shift
  mkdir -p "$O$src"
  files=""
  for f in "$@"; do [ -f "$src/$f" ] && files="$files $src/$f"; done
  [ -n "$files" ] && cp $files "$O$src/" 2>/dev/null
}
mkdir -p $O/proc
cat /proc/cmdline > $O/proc/cmdline
cat /proc/version > $O/proc/version
cat /proc/cpuinfo > $O/proc/cpuinfo
S=/sys/devices/system
copy $S/cpu online possible present offline isolated nohz_full
for c in $S/cpu/cpu[0-9]*; do
  [ -d $c/topology ] && mkdir -p $O$c/topology && cp $c/topology/* $O$c/topology/
  [ -f $c/online ] && copy $c online
  for i in $c/cache/index*; do
    [ -d $i ] && copy $i level type shared_cpu_list size id
  done
done
copy $S/node possible online has_cpu
for n in $S/node/node[0-9]*; do copy $n cpulist distance; done
for d in /sys/kernel/debug/sched/domains/cpu*/domain*; do
  copy $d name flags min_interval max_interval busy_factor imbalance_pct cache_nice_tries
done
# The scheduler's features and CFS tunables, to tell which rules this kernel runs.
copy /sys/kernel/debug/sched features latency_ns min_granularity_ns idle_min_granularity_ns \
  wakeup_granularity_ns migration_cost_ns nr_migrate tunable_scaling base_slice_ns
echo "schedlab-oracle: topology copied"
dmesg > $O/dmesg.txt
@WORKLOAD@
dmesg -n 1
echo "schedlab-oracle: sending results"
echo "=====SCHEDLAB-ORACLE-BEGIN====="
tar -C $O -cf - . | gzip -c | base64
echo "=====SCHEDLAB-ORACLE-END====="
poweroff -f
