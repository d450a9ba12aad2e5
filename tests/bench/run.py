#!/usr/bin/env python3
"""Benchmark runner: the shared programs through `ptc run` and, when installed,
JVM Clojure (`clojure`), nbb (`nbb`), CPython (`python3 -S`, on the Python
ports in ../shared/bench/python/) and pydantic-monty (`monty`, same ports;
`pip install pydantic-monty`) and Lua 5.4 (`lua5.4`, on the ports in
peers/; `apt-get install lua5.4`), in one run.

Usage: python3 tests/bench/run.py [--runs N] [--programs DIR] [--only SUBSTR]
       python3 tests/bench/run.py --callgrind [--only SUBSTR]
       python3 tests/bench/run.py --link-order

For every program in ../shared/bench/programs/ (09-parse is generated first)
it runs each implementation N times (default 5), takes the median wall time
and the peak resident memory (from /usr/bin/time), checks that every
implementation printed the same check line, and prints a table with the
ratio ptc/peer and every implementation's peak memory per program. Ratios from one run are the figures that count
on a noisy machine. Exits 1 if a check line differs or a run fails.

`--callgrind` instead counts the instructions of one run of each program
under `valgrind --tool=callgrind` for ptc, CPython (`python3 -S`, the
interpreter itself: a version manager's shim is resolved first) and Lua 5.4
when installed, and prints the counts and ptc's ratio to each. `--ptc BIN`
measures that binary instead of building the release one. Instruction counts do not depend on what else
the machine is doing, so they compare across runs where wall times do not.

`--link-order` writes tests/bench/link-order.txt (the functions the programs
execute, which build.rs places first in the binary's code; link_order.py)
from callgrind runs of every program, then builds the binary again with it.
Every other run first says how many of the listed functions the build has.
"""

import argparse
import atexit
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import link_order

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED_BENCH = os.path.join(ROOT, "..", "shared", "bench")
PEERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers")


def lua_port(prog):
    """The Lua 5.4 port of a program (tests/bench/peers/), or None."""
    port = os.path.join(PEERS, os.path.basename(prog)[:-4] + ".lua")
    return port if os.path.exists(port) else None


def run_once(cmd):
    """(seconds, peak_kb, stdout) of one run, measured by /usr/bin/time."""
    with tempfile.NamedTemporaryFile(mode="r", suffix=".time") as tf:
        full = ["/usr/bin/time", "-f", "%e %M", "-o", tf.name] + cmd
        proc = subprocess.run(full, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr.strip()[:300]}")
        secs, kb = tf.read().split()[-2:]
        return float(secs), int(kb), proc.stdout


def check_line(stdout):
    """The program's check line: the first printed line (ptc also prints the result after it)."""
    lines = [l for l in stdout.splitlines() if l.strip()]
    return lines[0] if lines else ""


def timed_run(cmd):
    """Wall seconds (perf_counter resolution) and stdout of one run."""
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr.strip()[:300]}")
    return elapsed, proc.stdout


def measure(cmd, runs):
    """Median wall time of `runs` runs, peak memory of one more (under /usr/bin/time)."""
    times, line = [], None
    for _ in range(runs):
        secs, out = timed_run(cmd)
        times.append(secs)
        line = check_line(out)
    _, kb, _ = run_once(cmd)
    return statistics.median(times), kb, line


def instructions(cmd, timeout=None):
    """(instructions, stdout) of one run under callgrind (subprocess.TimeoutExpired
    past `timeout` seconds)."""
    full = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd
    proc = subprocess.run(full, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr.strip()[-300:]}")
    for line in proc.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1].strip()), proc.stdout
    raise RuntimeError(f"no instruction count from callgrind for {' '.join(cmd)}")


def real_python():
    """The CPython binary itself (pyenv and similar shims start a shell first)."""
    out = subprocess.run(["python3", "-c", "import sys; print(sys.executable)"],
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def real_monty():
    """monty's own script beside the real CPython when it is there (not a shim)."""
    beside = os.path.join(os.path.dirname(real_python()), "monty")
    return beside if os.path.exists(beside) else "monty"


def print_table(header, rows):
    """A Markdown table of rows under header, columns padded to width."""
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print("| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |")


def callgrind_table(ptc, programs, python_port):
    """Instruction counts of ptc, CPython and Lua 5.4 per program, and ptc's ratios."""
    if not shutil.which("valgrind"):
        print("valgrind not found: apt-get install valgrind", file=sys.stderr)
        return 1
    python = real_python()
    lua = shutil.which("lua5.4")
    header = ["program", "ptc instructions", "cpython instructions", "ptc/cpython"]
    if lua:
        header += ["lua instructions", "ptc/lua"]
    rows, failed = [], 0
    for prog in programs:
        name = os.path.basename(prog)[:-4]
        try:
            n, out = instructions([ptc, "run", "--no-limits", prog])
            row = [name, f"{n:,}"]
            port = python_port(prog)
            if port:
                pn, pout = instructions([python, "-S", port])
                row += [f"{pn:,}", f"{n / pn:.3f}"]
                if check_line(pout) != check_line(out):
                    print(f"{name}: cpython printed {check_line(pout)!r}, ptc {check_line(out)!r}", file=sys.stderr)
                    failed += 1
            else:
                row += ["-", "-"]
            port = lua_port(prog)
            if lua and port:
                ln, lout = instructions([lua, port])
                row += [f"{ln:,}", f"{n / ln:.3f}"]
                if check_line(lout) != check_line(out):
                    print(f"{name}: lua printed {check_line(lout)!r}, ptc {check_line(out)!r}", file=sys.stderr)
                    failed += 1
            elif lua:
                row += ["-", "-"]
        except RuntimeError as e:
            print(f"{name}: {e}", file=sys.stderr)
            failed += 1
            continue
        rows.append(row)
        print("  ".join(row), file=sys.stderr)
    print_table(header, rows)
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--programs", default=os.path.join(SHARED_BENCH, "programs"))
    ap.add_argument("--only", default="")
    ap.add_argument("--no-peers", action="store_true")
    ap.add_argument("--callgrind", action="store_true",
                    help="instruction counts of ptc and CPython under callgrind instead of wall times")
    ap.add_argument("--link-order", action="store_true",
                    help="write tests/bench/link-order.txt from callgrind runs of every program")
    ap.add_argument("--ptc", help="this ptc binary instead of building the release one")
    args = ap.parse_args()

    if args.ptc:
        ptc = args.ptc
    else:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
        # cargo resolves a relative CARGO_TARGET_DIR against its working directory
        target = os.path.join(ROOT, os.environ.get("CARGO_TARGET_DIR") or "target")
        ptc = os.path.join(target, "release", "ptc")

    work = tempfile.mkdtemp(prefix="ptc-bench-")
    atexit.register(shutil.rmtree, work, ignore_errors=True)  # however the run ends
    programs = sorted(os.path.join(args.programs, p) for p in os.listdir(args.programs) if p.endswith(".clj"))
    parse = os.path.join(work, "09-parse.clj")
    subprocess.run([sys.executable, os.path.join(SHARED_BENCH, "gen-parse-program.py"), parse],
                   check=True, capture_output=True)
    programs.append(parse)
    startup = os.path.join(work, "00-startup.clj")
    with open(startup, "w") as f:
        f.write('(println "startup")\n')
    programs.insert(0, startup)
    every_program = sorted(programs, key=os.path.basename)
    programs = [p for p in every_program if args.only in os.path.basename(p)]

    def python_port(prog):
        """The Python port of a program, or None (start-up, 09-parse)."""
        port = os.path.join(SHARED_BENCH, "python", os.path.basename(prog)[:-4] + ".py")
        return port if os.path.exists(port) else None

    if args.link_order:
        count = link_order.write(ptc, every_program)
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
        found, listed = link_order.coverage(ptc)
        print(f"{link_order.LINK_ORDER}: {count} functions; the new build has {found} of {listed}")
        return 0 if found == listed else 1

    found, listed = link_order.coverage(ptc)
    print(f"link order: the build has {found} of the {listed} functions in {link_order.LINK_ORDER}"
          + ("" if found >= 0.9 * listed else "; write it again: python3 tests/bench/run.py --link-order"),
          file=sys.stderr)

    if args.callgrind:
        code = callgrind_table(ptc, programs, python_port)
        return code

    # name -> function from program to command line (None: no such program)
    peers = {}
    if not args.no_peers:
        if shutil.which("clojure"):
            peers["clojure"] = lambda p: ["clojure", p]
        if shutil.which("nbb"):
            peers["nbb"] = lambda p: ["nbb", p]
        if shutil.which("python3"):
            python = real_python()
            peers["cpython"] = lambda p: python_port(p) and [python, "-S", python_port(p)]
        if shutil.which("monty"):
            monty = real_monty()
            peers["monty"] = lambda p: python_port(p) and [monty, python_port(p)]
        if shutil.which("lua5.4"):
            peers["lua"] = lambda p: lua_port(p) and ["lua5.4", lua_port(p)]

    header = ["program", "ptc s", "ptc MB"]
    for name in peers:
        header += [f"{name} s", f"{name} MB", f"ptc/{name}"]
    header.append("check")
    rows, failed = [], 0
    for prog in programs:
        name = os.path.basename(prog)[:-4]
        try:
            t, kb, line = measure([ptc, "run", "--no-limits", prog], args.runs)
        except RuntimeError as e:
            print(f"{name}: {e}", file=sys.stderr)
            failed += 1
            continue
        row = [name, f"{t:.4f}", f"{kb / 1024:.1f}"]
        ok = True
        for peer, cmd in peers.items():
            if not cmd(prog):
                row += ["-", "-", "-"]
                continue
            try:
                pt, pkb, pline = measure(cmd(prog), args.runs)
                row += [f"{pt:.3f}", f"{pkb / 1024:.1f}", f"{t / pt:.3f}" if pt > 0 else "-"]
                if pline != line:
                    ok = False
                    print(f"{name}: {peer} printed {pline!r}, ptc {line!r}", file=sys.stderr)
            except RuntimeError as e:
                row += ["error", "-", "-"]
                print(f"{name}: {e}", file=sys.stderr)
        row.append("ok" if ok else "DIFFERS")
        failed += 0 if ok else 1
        rows.append(row)
        print("  ".join(row), file=sys.stderr)

    print_table(header, rows)
    print(f"{len(rows) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
