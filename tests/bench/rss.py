#!/usr/bin/env python3
"""Peak RSS of `ptc run` against the README's bound: the process's own size
plus 4 x `max_heap_bytes`, for programs that build values until they hit the
heap limit and for the hostile reproductions of issue 23 (lazy chains,
self-sharing values printed or passed on, exception constructors, oversized
inputs). Not a test: it measures (the README's table comes from it).

Usage: python3 tests/bench/rss.py [--ptc target/release/ptc] [--limits 10,100]

For each program and heap limit (MiB) it runs `ptc run` under
`/usr/bin/time -f %M` with a long timeout and no step limit, and prints the
peak RSS, the bound, the kind of error the run ended in, and `ok` or
`OVER`. Exits 1 if any run is over its bound.
"""

import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# 24 levels of [a a]: 2^24 leaves printed, 25 vectors in memory.
SS = "(def ss (reduce (fn [a _] [a a]) [1] (range 24)))"

PROGRAMS = [
    # Values built until the heap limit (the README's table).
    ("conj onto a vector", "(loop [v [] i 0] (recur (conj v i) (inc i)))"),
    ("assoc into a map", "(loop [m {} i 0] (recur (assoc m i i) (inc i)))"),
    ("strings into a set", '(loop [s #{} i 0] (recur (conj s (str "item-" i)) (inc i)))'),
    ("records conj'ed",
     '(loop [v [] i 0] (recur (conj v {:id i :name (str "n" i) :tags [:a :b]}) (inc i)))'),
    ("string doubling", '(loop [s "ab"] (recur (str s s)))'),
    ("vector doubling", "(loop [v [1]] (recur (into v v)))"),
    ("vec of a long range", "(count (vec (range 100000000)))"),
    ("1,000 distinct regexes",
     '(count (vec (for [i (range 1000)] (re-pattern (str "[a-z]{1," (+ 200 i) "}x")))))'),
    ("re-seq, 8 optional groups",
     '(def s (apply str (repeat 2500000 "a"))) (count (re-seq #"(a)?(b)?(c)?(d)?(e)?(f)?(g)?(h)?" s))'),
    ("frequencies over 100M", "(frequencies (map #(mod % 1000000) (range 100000000)))"),
    # Issue 23's reproductions.
    ("C1 map chain 2M deep", "(first (nth (iterate #(map inc %) (range)) 2000000))"),
    ("C1 repeat chain 3M deep", "(count (take 5 (nth (iterate repeat 1) 3000000)))"),
    ("H1 Exception. of a shared value", SS + " (count (mapv (fn [i] (Exception. ss)) (range 20)))"),
    ("H1 nested Exception.", "(loop [e {} i 0] (if (< i 100) (recur (Exception. e) (inc i)) :done))"),
    ("str of a shared value", SS + " (count (str ss))"),
    ("pr-str of a shared value", SS + " (count (pr-str ss))"),
    ("format of a shared value", SS + ' (count (format "%s" ss))'),
    ("returning a shared value", SS + " ss"),
    ("hash of a shared value", SS + " (hash ss)"),
    ("set of shared values", SS + " (count (set (repeat 100 ss)))"),
    ("lazy filter chain 2M deep",
     "(first (nth (iterate #(filter odd? %) (iterate #(+ % 2) 1)) 2000000))"),
]


def peak_kib(ptc, program, heap_mib, stdin=None, extra=()):
    """(peak RSS in KiB, last line of output) of `ptc run` on `program`."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "p.clj")
        with open(path, "w") as f:
            f.write(program)
        timefile = os.path.join(d, "time")
        cmd = ["/usr/bin/time", "-f", "%M", "-o", timefile, ptc, "run",
               "--timeout-ms", "120000", "--max-steps", "1000000000000",
               "--max-heap-bytes", str(heap_mib << 20), *extra, path]
        proc = subprocess.run(cmd, capture_output=True, text=True, stdin=stdin)
        with open(timefile) as f:
            kib = int(f.read().split()[-1])
        out = (proc.stdout + proc.stderr).strip().splitlines()
        return kib, (out[0] if out else "")[:60]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptc", default=os.path.join(ROOT, "target", "release", "ptc"))
    ap.add_argument("--limits", default="10,100")
    args = ap.parse_args()
    limits = [int(x) for x in args.limits.split(",")]
    base, _ = peak_kib(args.ptc, "1", limits[0])
    print(f"process alone: {base / 1024:.1f} MB; bound = process + 4 x max_heap_bytes\n")
    print("| program | " + " | ".join(f"limit {m} MiB" for m in limits) + " | ended in |")
    print("|---|" + "---|" * len(limits) + "---|")
    over = False
    for name, program in PROGRAMS:
        cells, ended = [], ""
        for mib in limits:
            kib, line = peak_kib(args.ptc, program, mib)
            bound = base + 4 * mib * 1024
            ok = kib <= bound
            over |= not ok
            cells.append(f"{kib / 1024:.0f} MB" + ("" if ok else " **OVER**"))
            ended = ended or line
        kind = next((k for k in ("memory-exceeded", "limit-exceeded", "timeout", "execution-error")
                     if k in ended), "value")
        print(f"| {name} | " + " | ".join(cells) + f" | {kind} |")
    # Inputs refused while being read.
    for name, extra in [("`ptc run /dev/zero`", None), ("`yes | ptc run -`", "yes")]:
        with tempfile.TemporaryDirectory() as d:
            timefile = os.path.join(d, "time")
            if extra:
                yes = subprocess.Popen(["yes"], stdout=subprocess.PIPE)
                subprocess.run(["/usr/bin/time", "-f", "%M", "-o", timefile, args.ptc, "run", "-"],
                               stdin=yes.stdout, capture_output=True)
                yes.kill()
            else:
                subprocess.run(["/usr/bin/time", "-f", "%M", "-o", timefile, args.ptc, "run",
                                "/dev/zero"], capture_output=True)
            with open(timefile) as f:
                kib = int(f.read().split()[-1])
        print(f"| {name} | {kib / 1024:.0f} MB (source limit 1 MiB) | | refused |")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
