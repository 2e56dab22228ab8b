#!/bin/sh
# elevbench's guest init (harness/guest/guest_boot.cc): mount, chroot, run, power off.
export PATH=/bin
fail() { echo "ELEVBENCH-GUEST-FAILED $*"; sync; poweroff -f; }
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
modprobe virtio_pci 2>/dev/null; modprobe virtiofs 2>/dev/null
mount -t virtiofs -o ro host /mnt/host || fail 'cannot mount the host share'
mount --bind '/mnt/host/cache/k/lib/modules/6.1.0-50-cloud-amd64' /lib/modules/6.1.0-50-cloud-amd64 || fail 'no modules in the cache'
echo /bin/modprobe > /proc/sys/kernel/modprobe || fail 'cannot set kernel.modprobe'
for m in loop fuse; do modprobe $m 2>/dev/null; done
mount -t proc proc /mnt/host/proc && mount -t sysfs sys /mnt/host/sys && mount -t devtmpfs dev /mnt/host/dev || fail 'cannot mount /proc, /sys, /dev'
mount -t cgroup2 none /mnt/host/sys/fs/cgroup 2>/dev/null && echo +io > /mnt/host/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
mount --bind /mnt/host /mnt/hostro || fail 'cannot bind the host share'
for d in tmp var/tmp run; do mount -t tmpfs -o mode=1777 tmpfs /mnt/host/$d || fail "cannot mount /$d"; done
mkdir -p '/mnt/host/src/r.json.fio/kernel-k'
mount -t virtiofs work '/mnt/host/src/r.json.fio/kernel-k' || fail 'cannot mount the work share'
echo "ELEVBENCH-GUEST-STARTED cpus=$(grep -c ^processor /proc/cpuinfo) $(grep MemTotal /proc/meminfo | tr -s ' ')"
t0=$(cut -d' ' -f1 /proc/uptime); i=0; while [ $i -lt 500000 ]; do i=$((i+1)); done; echo "ELEVBENCH-GUEST-CPU $t0 $(cut -d' ' -f1 /proc/uptime)"
chroot /mnt/host /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root ELEVBENCH_STATE_DIR=/run/elevbench ELEVBENCH_IN_GUEST=1 ELEVBENCH_GUEST_MODULES='/cache/k/lib/modules/6.1.0-50-cloud-amd64' /bin/sh -c 'cd '\''/src'\'' && exec '\''/src/build/elevbench'\'' '\''run'\'' '\''nickbench'\'' '\''--setup'\'' '\''echo '\''\'\'''\''a b'\''\'\'''\'''\''' >'/mnt/host/src/r.json.fio/kernel-k/guest.log' 2>&1
rc=$?
sync
echo "ELEVBENCH-GUEST-EXIT $rc"
poweroff -f
