#!/bin/sh
# run.sh (tools/bench/run-bundle.sh, copied by tools/bench/bundle) -- runs the benchmark bundle on this machine and
# prints the report.
#
# Usage: sh DIR/run.sh [--quick] [--machine TEXT] [--sections LIST]   (DIR: what tools/bench/bundle wrote)
#   --machine   what to call this machine in the report (CPU model, cores and kernel are read anyway)
#   --sections  comma-separated subset of wall,instructions,lateness,memory,deadline (default: all)
#   --quick     few runs of everything: a check of the bundle, not figures
# Needs: x86-64 Linux, root (mounts, chroot), DIR/busybox (static) and DIR/bench.tar.xz; nothing else. The report
# goes to stdout, to DIR/report.md, and to $OUT/report.md when $OUT is set (the device tool's output folder), with
# the raw data as $OUT/raw.tar.gz. Unpacks to $BENCH_WORK (default /tmp/coreutils-bench), removed at the end.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bb=$here/busybox
work=${BENCH_WORK:-/tmp/coreutils-bench}
root=$work/root
chmod +x "$bb" 2>/dev/null || true

# Never remove the work folder while anything is mounted under it (/dev is bound there).
mounted() { "$bb" grep -q " $root/" /proc/mounts; }
cleanup() {
  if mounted; then
    echo "run.sh: something is still mounted under $root; left in place" >&2
  else
    rm -rf "$work"
  fi
}
if [ -e "$work" ] && mounted; then
  echo "run.sh: $root has mounts from an earlier run; unmount them first" >&2
  exit 1
fi
rm -rf "$work"
mkdir -p "$work"
trap cleanup EXIT
"$bb" tar -xJf "$here/bench.tar.xz" -C "$work"

# Inside the chroot: /proc (lateness finds itself there), /dev and /sys bound from here, a fresh /tmp.
mounts='
  root=$1; bb=$2
  "$bb" mount -t proc proc "$root/proc" &&
  "$bb" mount -o rbind /dev "$root/dev" &&
  "$bb" mount -o rbind /sys "$root/sys" &&
  "$bb" mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"'
bench='"$bb" chroot "$root" /usr/bin/env -i PATH=/usr/bin LC_ALL=C HOME=/tmp \
    /usr/bin/python3 -S /bench/bench.py --outdir /bench-out "$@"'
if [ -z "${BENCH_NO_UNSHARE:-}" ] && "$bb" unshare -m --propagation private true 2>/dev/null; then
  # A private mount namespace: the mounts vanish with it, whatever happens.
  "$bb" unshare -m --propagation private "$bb" sh -c "$mounts && shift 2 && exec $bench" sh "$root" "$bb" "$@"
else
  # No mount namespace here: mount, run, unmount (lazily, innermost first).
  rc=0
  "$bb" sh -c "$mounts && shift 2 && $bench" sh "$root" "$bb" "$@" || rc=$?
  for m in tmp sys dev proc; do
    "$bb" umount -l "$root/$m" 2>/dev/null || true
  done
  [ "$rc" = 0 ] || exit "$rc"
fi

cp "$root/bench-out/report.md" "$here/report.md"
if [ -n "${OUT:-}" ]; then
  cp "$root/bench-out/report.md" "$OUT/report.md"
  "$bb" tar -C "$root/bench-out" -czf "$OUT/raw.tar.gz" .
fi
