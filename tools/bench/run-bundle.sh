#!/bin/sh
# run.sh (tools/bench/run-bundle.sh, copied by tools/bench/bundle) -- runs the benchmark bundle on this machine and
# prints the report.
#
# Usage: sh DIR/run.sh [--quick] [--machine TEXT] [--sections LIST]   (DIR: what tools/bench/bundle wrote)
#   --machine   what to call this machine in the report (CPU model, cores and kernel are read anyway)
#   --sections  comma-separated subset of wall,instructions,lateness,memory,deadline (default: all)
#   --quick     few runs of everything: a check of the bundle, not figures
# Needs: x86-64 Linux, root (mount namespace, chroot), DIR/busybox (static) and DIR/bench.tar.xz; nothing else. The
# report goes to stdout, to DIR/report.md, and to $OUT/report.md when $OUT is set (the device tool's output folder),
# with the raw data as $OUT/raw.tar.gz. Unpacks to $BENCH_WORK (default /tmp/coreutils-bench), removed at the end.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bb=$here/busybox
work=${BENCH_WORK:-/tmp/coreutils-bench}
chmod +x "$bb" 2>/dev/null || true
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
"$bb" tar -xJf "$here/bench.tar.xz" -C "$work"
root=$work/root

# Inside the chroot: /proc (lateness finds itself there), /dev and /sys bound from here, a fresh /tmp; private to a
# mount namespace, so nothing is left mounted whatever happens.
inner='
  set -e
  root=$1; bb=$2; shift 2
  "$bb" mount -t proc proc "$root/proc"
  "$bb" mount -o rbind /dev "$root/dev"
  "$bb" mount -o rbind /sys "$root/sys"
  "$bb" mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
  exec "$bb" chroot "$root" /usr/bin/env -i PATH=/usr/bin LC_ALL=C HOME=/tmp \
    /usr/bin/python3 -S /bench/bench.py --outdir /bench-out "$@"'
"$bb" unshare -m --propagation private "$bb" sh -c "$inner" sh "$root" "$bb" "$@"

cp "$root/bench-out/report.md" "$here/report.md"
if [ -n "${OUT:-}" ]; then
  cp "$root/bench-out/report.md" "$OUT/report.md"
  "$bb" tar -C "$root/bench-out" -czf "$OUT/raw.tar.gz" .
fi
