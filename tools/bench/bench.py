#!/usr/bin/env python3
"""Side-by-side benchmark: ours vs GNU coreutils 9.1, busybox, toybox, uutils. Run through tools/bench/run.

Every figure is taken in one run on one machine and reported as a ratio to GNU:
  wall      hyperfine -N medians; ROUNDS rounds, each timing every implementation back to back, so the ratio is
            the median of per-round ratios (pairwise, robust to drift in machine load)
  instr     valgrind --tool=callgrind instruction count of the utility's own process(es); children it execs are
            not traced (callgrind's default), so the command run under timeout/env does not count
  lateness  `timeout 0.05 sleep 10`: wall time beyond 50 ms, median and p99 over LATE_RUNS runs (what a caller
            sees, process exits and reaping included); then the expiry signal's own lateness at the command, from
            tools/bench/lateness (bounds from the caller's spawn and from the command's start), beside the
            machine's floor: a bare clock_nanosleep(50 ms) with no timeout program at all
  rss       peak RSS from /usr/bin/time, median of 5
  size      bytes on disk of the executable (ours: the whole static multicall binary, stripped)
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

PEERS = {
    # name -> function(utility) -> path of an executable that behaves as that utility, or None
    "gnu": lambda u: {"timeout": "/usr/bin/timeout", "sleep": "/usr/bin/sleep", "env": "/usr/bin/env",
                      "true": "/usr/bin/true", "kill": None}.get(u),
    "procps": lambda u: "/usr/bin/kill" if u == "kill" else None,  # GNU kill is not packaged; procps's is.
    "busybox": lambda u: "/bin/busybox" if os.path.exists("/bin/busybox") else None,
    "toybox": lambda u: "/usr/bin/toybox" if os.path.exists("/usr/bin/toybox") else None,
    "uutils": lambda u: (lambda p: p if os.path.exists(p) else None)("/usr/lib/cargo/bin/coreutils/" + u),
}

TRUE = "/usr/bin/true"  # The command under timeout/env is always GNU's, so only the utility itself differs.
SLEEP = "/usr/bin/sleep"


def cases():
    pid = str(os.getpid())
    return [
        ("timeout 10 true", "timeout", ["10", TRUE]),
        ("timeout 10 sleep 0.01", "timeout", ["10", SLEEP, "0.01"]),
        ("sleep 0", "sleep", ["0"]),
        ("env true", "env", [TRUE]),
        ("true", "true", []),
        ("kill -0 PID", "kill", ["-0", pid]),
    ]


def make_links(workdir, binary):
    """workdir/IMPL/UTILITY -> the executable, so every implementation is called by the utility's own name."""
    impls = {}
    ours = os.path.join(workdir, "coreutils")
    shutil.copy(binary, ours)  # Unstripped, so callgrind can find execve; the stripped size is reported apart.
    os.chmod(ours, 0o755)
    sources = {"ours": lambda u: ours}
    sources.update(PEERS)
    for impl, source in sources.items():
        d = os.path.join(workdir, impl)
        os.makedirs(d)
        for util in ("timeout", "sleep", "env", "true", "kill"):
            target = source(util)
            if target:
                os.symlink(target, os.path.join(d, util))
        if os.listdir(d):
            impls[impl] = d
    return impls, ours


def hyperfine(commands, runs, warmup, out_json, expected_status=0):
    """Times the commands back to back; returns hyperfine's results, each with "unexpected" = runs whose exit status
    was not expected_status. Peers may fail now and then (toybox's timeout does, about 2 in 1000 here), so failures
    are counted and reported rather than aborting; ours failing aborts the benchmark (that is a bug, not a figure)."""
    subprocess.run(["hyperfine", "-N", "-i", "--style", "none", "--warmup", str(warmup), "--runs", str(runs),
                    "--export-json", out_json] + commands, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    with open(out_json) as f:
        results = json.load(f)["results"]
    for command, res in zip(commands, results):
        res["unexpected"] = sum(1 for c in res["exit_codes"] if c != expected_status)
        if res["unexpected"] and "/ours/" in command:
            sys.exit("bench: ours exited with an unexpected status: %s %s" % (command, res["exit_codes"]))
    return results


def instructions(argv, execs=False):
    """Instructions of the utility's own process(es); children it forks are not traced. For a utility that execs
    its command (env), the count is taken at the execve call (--dump-before=execve), so the command's instructions
    are not included. Ours is measured unstripped for that (the same code; stripping changes no instruction)."""
    if not execs:
        r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + argv,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        counts = [int(line.split("Collected :")[1]) for line in r.stderr.splitlines() if "Collected :" in line]
        return sum(counts) if counts else None
    out = tempfile.mkdtemp(prefix="cg.")
    subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out + "/cg", "--dump-before=execve"] +
                   argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    total = None
    dumps = sorted(f for f in os.listdir(out) if f.endswith(".1"))
    if dumps:
        with open(os.path.join(out, dumps[0])) as f:
            for line in f:
                if line.startswith("totals:"):
                    total = int(line.split()[1])
    shutil.rmtree(out)
    return total


def peak_rss_kb(argv):
    values = []
    for _ in range(5):
        r = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
        values.append(int(r.stderr.strip().splitlines()[-1]))
    return statistics.median(values)


def pct(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def ratio(a, b):
    return "%.2f" % (a / b) if a is not None and b else "-"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--lateness", help="tools/bench/lateness executable (the expiry-lateness probe)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("outdir", nargs="?", default="/tmp/coreutils-bench")
    args = ap.parse_args()
    rounds, runs, late_runs = (2, 20, 20) if args.quick else (5, 200, 200)
    os.makedirs(args.outdir, exist_ok=True)
    work = tempfile.mkdtemp(prefix="bench.")
    impls, ours_binary = make_links(work, args.binary)
    names = [n for n in ("ours", "gnu", "procps", "busybox", "toybox", "uutils") if n in impls]
    lines = []
    emit = lambda s="": (print(s), lines.append(s))

    emit("# coreutils benchmark")
    emit()
    emit("Machine: %d cores, %s. Ratios are ours / GNU (procps for kill); below 1 is better." %
         (os.cpu_count(), os.uname().release))
    emit()

    # Wall time and instructions.
    emit("| case | impl | wall median (ms) | wall ratio | instructions | instr ratio | failed runs |")
    emit("|---|---|---:|---:|---:|---:|---:|")
    all_times = {}
    for title, util, argv in cases():
        present = [n for n in names if os.path.exists(os.path.join(impls[n], util))]
        per_round = {n: [] for n in present}
        failures = {n: 0 for n in present}
        for rnd in range(rounds):
            cmds = [" ".join([os.path.join(impls[n], util)] + argv) for n in present]
            results = hyperfine(cmds, runs, 10, os.path.join(args.outdir, "hf-%s-%d.json" % (util, rnd)))
            for n, res in zip(present, results):
                per_round[n].append(res["median"])
                failures[n] += res["unexpected"]
                all_times.setdefault(title, {}).setdefault(n, []).extend(res["times"])
        ref = "gnu" if "gnu" in present else ("procps" if "procps" in present else None)
        instr = {n: instructions([os.path.join(impls[n], util)] + argv, execs=(util == "env")) for n in present}
        for n in present:
            med = statistics.median(per_round[n]) * 1000
            wall_ratio = statistics.median([a / b for a, b in zip(per_round[n], per_round[ref])]) if ref else None
            emit("| %s | %s | %.3f | %s | %s | %s | %d/%d |" % (
                title, n, med, "%.2f" % wall_ratio if wall_ratio else "-",
                instr[n] if instr[n] is not None else "-", ratio(instr[n], instr.get(ref)), failures[n],
                rounds * runs))

    # Dispatch: through a symlink vs `coreutils NAME`.
    res = hyperfine([os.path.join(impls["ours"], "true"), ours_binary + " true"], runs, 10,
                    os.path.join(args.outdir, "hf-dispatch.json"))
    emit()
    emit("Dispatch (ours, `true`): symlink %.3f ms, `coreutils true` %.3f ms; instructions %s vs %s." % (
        res[0]["median"] * 1000, res[1]["median"] * 1000,
        instructions([os.path.join(impls["ours"], "true")]), instructions([ours_binary, "true"])))

    # Every implementation that has a timeout, for the lateness and memory tables.
    timeouts = [(n, os.path.join(impls[n], "timeout")) for n in names
                if os.path.exists(os.path.join(impls[n], "timeout"))]

    # Expiry lateness.
    emit()
    emit("Expiry lateness of `timeout 0.05 sleep 10` over %d runs (ms beyond 50 ms):" % late_runs)
    emit()
    emit("| impl | median | p99 | max |")
    emit("|---|---:|---:|---:|")
    for n, t in timeouts:
        res = hyperfine([t + " 0.05 " + SLEEP + " 10"], late_runs, 3, os.path.join(args.outdir, "hf-late-%s.json" % n),
                        expected_status=124)
        late = [(x - 0.05) * 1000 for x in res[0]["times"]]
        emit("| %s | %.3f | %.3f | %.3f |" % (n, statistics.median(late), pct(late, 99), max(late)))
    if args.lateness:
        emit()
        emit("Expiry signal at the command, %d runs of `timeout 0.05 lateness --probe` (µs beyond 50 ms; the true "
             "lateness lies between the two bounds). Floor: %d bare `clock_nanosleep` calls of 50 ms." % (
                 late_runs, late_runs))
        emit()
        emit("| impl | from spawn: p50 | p99 | max | from command start: p50 | p99 | max |")
        emit("|---|---:|---:|---:|---:|---:|---:|")
        for n, t in timeouts:
            run = subprocess.run([args.lateness, str(late_runs), t], capture_output=True, text=True)
            rows = {f[0]: f[1:5] for f in (line.split() for line in run.stdout.splitlines()) if f}
            if "upper" in rows and "lower" in rows:
                measured = int(rows["upper"][3])
                note = "" if measured == late_runs else " (%d of %d runs failed)" % (late_runs - measured, late_runs)
                emit("| %s%s | %s | %s | %s | %s | %s | %s |" % (
                    (n, note) + tuple(rows["upper"][:3]) + tuple(rows["lower"][:3])))
            else:
                emit("| %s | failed: %s |" % (n, (run.stderr.strip() or "exit %d" % run.returncode)[:100]))
        out = subprocess.run([args.lateness, "--floor", str(late_runs)], capture_output=True, text=True).stdout
        floor = out.split()[1:4]
        if len(floor) == 3:
            emit("| floor: clock_nanosleep | - | - | - | %s | %s | %s |" % tuple(floor))

    # Memory and size.
    emit()
    emit("| impl | peak RSS of `timeout 10 true` (KiB) | executable size (bytes) |")
    emit("|---|---:|---:|")
    stripped = os.path.join(work, "coreutils.stripped")
    subprocess.run(["strip", "-o", stripped, ours_binary], check=True)
    for n, t in timeouts:
        size = os.path.getsize(stripped if n == "ours" else os.path.realpath(t))
        emit("| %s | %d | %d |" % (n, peak_rss_kb([t, "10", TRUE]), size))
    emit()
    emit("Ours is one static multicall binary (every utility); GNU's are per-utility and dynamically linked "
         "(libc.so not counted).")

    with open(os.path.join(args.outdir, "report.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    plot(args.outdir, all_times.get("timeout 10 true", {}))
    shutil.rmtree(work)


def plot(outdir, times):
    """A box plot of `timeout 10 true` wall times per implementation (gnuplot, when installed), log scale so the
    slow outliers do not flatten the rest."""
    if not times or not shutil.which("gnuplot"):
        return
    order = list(times)
    series = []
    for i, n in enumerate(order):
        path = os.path.join(outdir, "walltime-%s.dat" % n)
        with open(path, "w") as f:
            f.writelines("%.6f\n" % (t * 1000) for t in times[n])
        series.append("'%s' using (%d):1 notitle" % (path, i + 1))
    script = """set terminal pngcairo size 900,500
set output '%s'
set title 'timeout 10 true: wall time per run (%d runs each)'
set ylabel 'ms (log scale)'
set logscale y
set style fill solid 0.3
set style data boxplot
set xrange [0.3:%f]
set xtics (%s)
plot %s
""" % (os.path.join(outdir, "walltime.png"), len(next(iter(times.values()))), len(order) + 0.7,
       ", ".join('"%s" %d' % (n, i + 1) for i, n in enumerate(order)), ", ".join(series))
    r = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
    if r.returncode != 0:
        # gnuplot-nox may lack pngcairo; fall back to the plain png terminal.
        subprocess.run(["gnuplot"], input=script.replace("pngcairo", "png"), text=True)


if __name__ == "__main__":
    sys.exit(main())
