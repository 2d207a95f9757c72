#!/usr/bin/env python3
"""Side-by-side benchmark: ours vs GNU coreutils 9.10, busybox 1.38 and uutils 0.12 (today's releases), with GNU 9.1
as an extra column. Runs inside the chroot of tools/bench/bundle, where every implementation loads the same C
library; start it with tools/bench/run (here) or DIR/run.sh (a machine without packages).

Sections (--sections, default all), every figure taken in this one run on this one machine:
  wall          hyperfine -N medians; ROUNDS rounds, each timing every implementation back to back, so the ratio
                to GNU 9.10 is the median of per-round ratios (pairwise, robust to drift in machine load)
  instructions  valgrind --tool=callgrind instruction count of the utility's own process; children it execs are not
                traced, and env is counted up to its execve (--dump-before=execve)
  lateness      `timeout 0.05 sleep 10`: wall time beyond 50 ms (what a caller sees); then the expiry signal's own
                lateness at the command (tools/bench/lateness: bounds from the caller's spawn and from the command's
                start), idle and with every core busy (--load), beside the floor: a bare clock_nanosleep(50 ms)
  memory        peak RSS of `timeout 10 true` (wait4's ru_maxrss, median of 5) and the executable's size
  deadline      uucore/deadline: throughput at 1, 2, 4, 8 and 16 threads beside its anchors (deadline_bench),
                flatness, and firing lateness, three runs each at 32 and 128 arming threads (deadline_soak), then one
                run of the traced build (the library's own timings of registration, barriers and wake-ups)
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

UTILITIES = ("timeout", "sleep", "env", "true", "kill")
TRUE = "/usr/bin/true"  # GNU 9.10's: the command under timeout/env is the same for every implementation
SLEEP = "/usr/bin/sleep"
BENCH = "/bench"


def gnu_910(u):
    if u == "kill":
        return BENCH + "/gnu-9.10-kill/kill"  # GNU no longer builds kill; reference-peers --gnu-kill does
    return "/usr/bin/" + u


# name -> (utility -> executable in the root); an implementation lacking a utility has no such file.
IMPLS = [
    ("ours", lambda u: BENCH + "/ours/coreutils"),
    ("gnu", gnu_910),
    ("busybox", lambda u: "/usr/bin/busybox"),
    ("uutils", lambda u: "/usr/bin/coreutils"),
    ("gnu-9.1", lambda u: BENCH + "/gnu-9.1/" + u),
    ("procps", lambda u: "/usr/bin/kill" if u == "kill" else None),
]
SECTIONS = ("wall", "instructions", "lateness", "memory", "deadline")


def first_line(argv):
    r = subprocess.run(argv, capture_output=True, text=True)
    return ((r.stdout or r.stderr).strip().splitlines() or [""])[0]


def labels(impls):
    """name -> "NAME VERSION", read from the programs themselves through their links."""
    def version(impl, util, argv):
        line = first_line([os.path.join(impls[impl], util)] + argv) if impl in impls else ""
        return line.split()[-1] if line else "?"
    busybox = first_line(["/usr/bin/busybox"]).split()  # "BusyBox v1.38.0 (...) multi-call binary."
    return {"ours": "ours", "gnu": "GNU " + version("gnu", "timeout", ["--version"]),
            "gnu-9.1": "GNU " + version("gnu-9.1", "timeout", ["--version"]),
            "busybox": "busybox " + (busybox[1].lstrip("v") if len(busybox) > 1 else "?"),
            "uutils": "uutils " + version("uutils", "timeout", ["--version"]),
            "procps": "procps kill " + version("procps", "kill", ["--version"])}


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


def make_links(workdir):
    """workdir/IMPL/UTILITY -> the executable, so that every implementation is called by the utility's name."""
    impls = {}
    for impl, source in IMPLS:
        d = os.path.join(workdir, impl)
        os.makedirs(d)
        for util in UTILITIES:
            target = source(util)
            if target and os.path.exists(target):
                os.symlink(target, os.path.join(d, util))
        if os.listdir(d):
            impls[impl] = d
    return impls


def hyperfine(commands, runs, warmup, out_json, expected_status=0):
    """Times the commands back to back; returns hyperfine's results, each with "unexpected" = runs whose exit status
    was not expected_status. Peers may fail now and then, so failures are counted and reported rather than
    aborting; ours failing aborts the benchmark (that is a bug, not a figure)."""
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
    """Instructions of the utility's own process; children it forks are not traced. For a utility that execs its
    command (env), the count is taken at the execve call (--dump-before=execve)."""
    out = tempfile.mkdtemp(prefix="cg.")
    extra = ["--dump-before=execve"] if execs else []
    r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out + "/cg"] + extra + argv,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    total = None
    if execs:
        dumps = sorted(f for f in os.listdir(out) if f.endswith(".1"))
        if dumps:
            with open(os.path.join(out, dumps[0])) as f:
                total = next((int(line.split()[1]) for line in f if line.startswith("totals:")), None)
    else:
        counts = [int(line.split("Collected :")[1]) for line in r.stderr.splitlines() if "Collected :" in line]
        total = sum(counts) if counts else None
    shutil.rmtree(out)
    return total


def peak_rss_kb(argv):
    """Median of 5 (tools/bench/rss: a small static spawner, see why there)."""
    return int(subprocess.run([BENCH + "/rss", "5"] + argv, capture_output=True, text=True, check=True).stdout)


def median(values):
    s = sorted(values)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def pct(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


class Report:
    def __init__(self, path):
        self.path = path
        self.lines = []

    def __call__(self, s=""):
        print(s, flush=True)
        self.lines.append(s)
        with open(self.path, "w") as f:  # written as it goes: a run cut short keeps what it measured
            f.write("\n".join(self.lines) + "\n")


def machine(note):
    model = "?"
    try:
        with open("/proc/cpuinfo") as f:
            model = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "?")
    except OSError:
        pass
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    return "%s%d CPUs (%s), Linux %s, load average %s at the start, %s" % (
        note + ": " if note else "", os.cpu_count(), model, os.uname().release, load,
        time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))


def wall_and_instructions(emit, impls, names, label, rounds, runs, outdir, do_wall, do_instr):
    cols = [n for n in names if n != "procps"] + (["procps"] if "procps" in names else [])
    if do_wall:
        emit("Wall time, µs (median of %d rounds x %d runs; in brackets the ratio to GNU 9.10, median of per-round "
             "ratios; kill: to GNU's kill 9.10):" % (rounds, runs))
        emit()
        emit("| case | " + " | ".join(label[n] for n in cols) + " |")
        emit("|---|" + "---:|" * len(cols))
    per_case_instr = []
    failures = []
    for title, util, argv in cases():
        present = [n for n in cols if os.path.exists(os.path.join(impls[n], util))]
        ref = "gnu" if "gnu" in present else None
        cells = {}
        if do_wall:
            per_round = {n: [] for n in present}
            for rnd in range(rounds):
                cmds = [" ".join([os.path.join(impls[n], util)] + argv) for n in present]
                for n, res in zip(present, hyperfine(cmds, runs, 10, os.path.join(outdir, "hf-%s-%d.json" % (
                        util, rnd)))):
                    per_round[n].append(res["median"])
                    if res["unexpected"]:
                        failures.append("%s %s: %d of %d runs" % (label[n], title, res["unexpected"], runs))
            for n in present:
                cell = "%.0f" % (median(per_round[n]) * 1e6)
                if ref and n != ref:
                    cell += " (%.2f)" % median([a / b for a, b in zip(per_round[n], per_round[ref])])
                cells[n] = cell
            emit("| `%s` | " % title + " | ".join(cells.get(n, "-") for n in cols) + " |")
        if do_instr:
            per_case_instr.append((title, {n: instructions([os.path.join(impls[n], util)] + argv,
                                                            execs=(util == "env")) for n in present}))
    if do_wall and failures:
        emit()
        emit("Runs that exited with an unexpected status: " + "; ".join(failures) + ".")
    if do_wall:
        res = hyperfine([os.path.join(impls["ours"], "true"), BENCH + "/ours/coreutils true"], runs, 10,
                        os.path.join(outdir, "hf-dispatch.json"))
        emit()
        emit("Dispatch (ours, `true`): through a symlink %.0f µs, as `coreutils true` %.0f µs." % (
            res[0]["median"] * 1e6, res[1]["median"] * 1e6))
    if do_instr:
        emit()
        emit("Instructions (callgrind; the utility's own process, env up to its execve; in brackets the ratio to "
             "GNU 9.10):")
        emit()
        emit("| case | " + " | ".join(label[n] for n in cols) + " |")
        emit("|---|" + "---:|" * len(cols))
        for title, instr in per_case_instr:
            ref = instr.get("gnu")
            cells = []
            for n in cols:
                v = instr.get(n)
                cells.append("-" if v is None else "{:,}".format(v) + (" (%.2f)" % (v / ref) if ref and n != "gnu"
                                                                           else ""))
            emit("| `%s` | " % title + " | ".join(cells) + " |")
        emit()
        emit("Counted with a clean environment (`env -i`, as every run here): glibc's start-up scans the environment "
             "for tunables, so a long one adds thousands of instructions to every implementation. -: not counted "
             "(busybox's static binary has no symbols, so callgrind cannot stop at its execve).")


def lateness(emit, timeouts, label, late_runs, outdir):
    emit("Expiry lateness of `timeout 0.05 sleep 10`, %d runs, ms beyond 50 ms (what a caller sees: process exits "
         "and reaping included):" % late_runs)
    emit()
    emit("| impl | median | p99 | max |")
    emit("|---|---:|---:|---:|")
    for n, t in timeouts:
        res = hyperfine([t + " 0.05 " + SLEEP + " 10"], late_runs, 3, os.path.join(outdir, "hf-late-%s.json" % n),
                        expected_status=124)
        late = [(x - 0.05) * 1000 for x in res[0]["times"]]
        emit("| %s | %.2f | %.2f | %.2f |" % (label[n], median(late), pct(late, 99), max(late)))
    for load in (False, True):
        emit()
        emit("Expiry signal at the command, %s: %d runs of `timeout 0.05 lateness --probe`, µs beyond 50 ms; the true "
             "lateness lies between the bound from the caller's spawn and the one from the command's start. Floor: "
             "%d bare `clock_nanosleep` calls of 50 ms%s." % (
                 "every core busy (`lateness --load`: one spinning process per CPU)" if load else "idle",
                 late_runs, late_runs, " under the same load" if load else ""))
        emit()
        emit("| impl | from spawn: p50 | p99 | max | from command start: p50 | p99 | max |")
        emit("|---|---:|---:|---:|---:|---:|---:|")
        flag = ["--load"] if load else []
        for n, t in timeouts:
            run = subprocess.run([BENCH + "/lateness"] + flag + [str(late_runs), t], capture_output=True, text=True)
            rows = {f[0]: f[1:5] for f in (line.split() for line in run.stdout.splitlines()) if f}
            if "upper" in rows and "lower" in rows:
                measured = int(rows["upper"][3])
                note = "" if measured == late_runs else " (%d of %d runs failed)" % (late_runs - measured, late_runs)
                emit("| %s%s | %s | %s | %s | %s | %s | %s |" % (
                    (label[n], note) + tuple(rows["upper"][:3]) + tuple(rows["lower"][:3])))
            else:
                emit("| %s | failed: %s |" % (label[n], (run.stderr.strip() or "exit %d" % run.returncode)[:100]))
        out = subprocess.run([BENCH + "/lateness"] + flag + ["--floor", str(late_runs)], capture_output=True,
                             text=True).stdout
        floor = out.split()[1:4]
        if len(floor) == 3:
            emit("| floor: clock_nanosleep | - | - | - | %s | %s | %s |" % tuple(floor))


def memory(emit, timeouts, label):
    with open(BENCH + "/bundle.json") as f:
        ours_size = json.load(f)["ours_stripped_bytes"]
    emit("| impl | peak RSS of `timeout 10 true` (KiB) | executable size (bytes) |")
    emit("|---|---:|---:|")
    for n, t in timeouts:
        size = ours_size if n == "ours" else os.path.getsize(os.path.realpath(t))
        emit("| %s | %d | {:,} |".format(size) % (label[n], peak_rss_kb([t, "10", TRUE])))
    emit()
    emit("Ours is one static multicall binary (every utility, stripped); GNU's are per-utility and dynamically "
         "linked (libc.so not counted); uutils and busybox are multicall (uutils dynamic, busybox static).")


SOAK_TIMERS = ("uucore/deadline", "asio steady_timer", "mutex+multimap", "floor: clock_nanosleep")


def soak_rows(text):
    rows = {}
    for line in text.splitlines():
        for name in SOAK_TIMERS:
            if line.startswith(name):
                f = line[len(name):].split()
                rows[name] = [float(x) for x in f[:4]] + [int(f[4]), int(f[5])]
    return rows


def deadline(emit, quick, outdir):
    min_time = "0.05" if quick else "0.3"
    r = subprocess.run([BENCH + "/deadline_bench", "--benchmark_format=json", "--benchmark_min_time=" + min_time],
                       capture_output=True, text=True)
    with open(os.path.join(outdir, "deadline_bench.json"), "w") as f:
        f.write(r.stdout)
    rates = {}
    for b in json.loads(r.stdout)["benchmarks"]:
        name, threads = b["name"].split("/real_time/threads:")
        rates.setdefault(name, {})[int(threads)] = b["items_per_second"]
    threads = sorted({t for v in rates.values() for t in v})
    emit("Throughput of \"arm 1 s, empty block, disarm\", M ops/s summed over the threads (deadline_bench, "
         "--benchmark_min_time=%s):" % min_time)
    emit()
    emit("| timer | " + " | ".join("%d thread%s" % (t, "" if t == 1 else "s") for t in threads) + " |")
    emit("|---|" + "---:|" * len(threads))
    names = {"BM_Ours": "**uucore/deadline** `ScopedDeadline`", "BM_OursRunWithTimeout": "uucore/deadline "
             "`RunWithTimeout`", "BM_Asio": "Asio `steady_timer`", "BM_Libuv": "libuv (async commands)",
             "BM_MutexMultimap/notify_if_earliest": "mutex+multimap, notify if earliest",
             "BM_MutexMultimap/notify_always": "mutex+multimap, notify always", "BM_ThreadPerCall": "thread per call"}
    for key, title in names.items():
        if key in rates:
            emit("| %s | " % title + " | ".join(
                ("%.3g" % (rates[key][t] / 1e6)) if t in rates[key] else "-" for t in threads) + " |")

    emit()
    flat_args = ["--rounds=2", "--ops=1000000"] if quick else []
    flat = subprocess.run([BENCH + "/deadline_soak", "--skip-lateness"] + flat_args, capture_output=True, text=True)
    rounds = [l.split() for l in flat.stdout.splitlines() if l.strip()[:1].isdigit()]
    last_first = next((l.split(":")[1].strip() for l in flat.stdout.splitlines() if l.startswith("last/first")), "?")
    if rounds:
        emit("Flatness, %d rounds of %s arms on one thread (deadline_soak): M ops/s first %s, last %s, min %s, max %s; "
             "RSS %s -> %s kB; last/first %s." % (
                 len(rounds), "1 M" if quick else "10 M", rounds[0][1], rounds[-1][1],
                 min(r[1] for r in rounds), max(r[1] for r in rounds), rounds[0][2], rounds[-1][2], last_first))

    emit()
    deadlines = "2000" if quick else "20000"
    emit("Firing lateness, %s deadlines of 1-10 ms (deadline_soak --skip-flatness), µs; target (issue 20): p99.9 of "
         "ours <= 1.5 x the larger of Asio's and the floor's, max <= 2 ms, none early or missing:" % deadlines)
    emit()
    emit("| run | threads | ours p50 | p99 | p99.9 | max | Asio p99.9 | max | mutex+multimap p99.9 | floor p99.9 | max "
         "| ours p99.9 / max(Asio, floor) | early, missing |")
    emit("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    runs = 1 if quick else 3
    for threads in (32, 128):
        for i in range(runs):
            r = subprocess.run([BENCH + "/deadline_soak", "--skip-flatness", "--deadlines=" + deadlines,
                                "--threads=%d" % threads], capture_output=True, text=True)
            rows = soak_rows(r.stdout)
            if len(rows) != len(SOAK_TIMERS):
                emit("| %d | %d | failed: %s |" % (i + 1, threads, (r.stderr or r.stdout).strip()[:100]))
                continue
            o, a, m, fl = (rows[t] for t in SOAK_TIMERS)
            early_missing = ", ".join("%d/%d" % (rows[t][4], rows[t][5]) for t in SOAK_TIMERS)
            emit("| %d | %d | %.0f | %.0f | **%.0f** | **%.0f** | %.0f | %.0f | %.0f | %.0f | %.0f | %.2f | %s |" % (
                i + 1, threads, o[0], o[1], o[2], o[3], a[2], a[3], m[2], fl[2], fl[3], o[2] / max(a[2], fl[2]),
                early_missing))
    emit()
    emit("(early/missing per timer: ours, Asio, mutex+multimap, floor.)")
    emit()
    r = subprocess.run([BENCH + "/deadline_soak_traced", "--skip-flatness", "--deadlines=" + deadlines],
                       capture_output=True, text=True)
    emit("One run of the traced build (`deadline_soak_traced --skip-flatness --deadlines=%s`, 32 threads; the "
         "library times itself, which costs a little):" % deadlines)
    emit()
    emit("```")
    for line in (r.stdout + r.stderr).strip().splitlines():
        emit(line)
    emit("```")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--outdir", default="/bench-out")
    ap.add_argument("--quick", action="store_true", help="few runs: a check of the bench, not figures")
    ap.add_argument("--machine", default="", help="what to call this machine in the report")
    ap.add_argument("--sections", default=",".join(SECTIONS))
    args = ap.parse_args()
    sections = args.sections.split(",")
    unknown = set(sections) - set(SECTIONS)
    if unknown:
        sys.exit("bench: unknown sections %s (known: %s)" % (", ".join(sorted(unknown)), ", ".join(SECTIONS)))
    rounds, runs, late_runs = (2, 20, 20) if args.quick else (5, 100, 150)
    os.makedirs(args.outdir, exist_ok=True)
    emit = Report(os.path.join(args.outdir, "report.md"))
    work = tempfile.mkdtemp(prefix="bench.")
    impls = make_links(work)
    names = [n for n, _ in IMPLS if n in impls]
    label = labels(impls)
    with open(BENCH + "/bundle.json") as f:
        bundle = json.load(f)
    timings = []

    emit("# coreutils benchmark%s" % (" (--quick: not figures)" if args.quick else ""))
    emit()
    emit("Machine: %s. Ours at %s. Every implementation runs in the chroot of `tools/bench/bundle` with the same C "
         "library (Debian unstable's glibc; ours is static). Below 1 is better than GNU 9.10." % (
             machine(args.machine), bundle["commit"]))
    emit()
    start = time.time()
    if "wall" in sections or "instructions" in sections:
        wall_and_instructions(emit, impls, names, label, rounds, runs, args.outdir, "wall" in sections,
                              "instructions" in sections)
        emit()
        timings.append("wall+instructions %.0f s" % (time.time() - start))
    timeouts = [(n, os.path.join(impls[n], "timeout")) for n in names
                if os.path.exists(os.path.join(impls[n], "timeout"))]
    for name, fn in (("lateness", lambda: lateness(emit, timeouts, label, late_runs, args.outdir)),
                     ("memory", lambda: memory(emit, timeouts, label)),
                     ("deadline", lambda: deadline(emit, args.quick, args.outdir))):
        if name in sections:
            t = time.time()
            fn()
            emit()
            timings.append("%s %.0f s" % (name, time.time() - t))
    emit("Bench time: %s." % ", ".join(timings))
    shutil.rmtree(work)


if __name__ == "__main__":
    sys.exit(main())
