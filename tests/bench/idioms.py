#!/usr/bin/env python3
"""Idioms that models write, at 1k, 10k and 100k elements: instructions per
element for ptc and CPython (issue 62), counted under callgrind.

Usage: python3 tests/bench/idioms.py [--ptc BIN] [--sizes 1000,10000,100000]
                                     [--only SUBSTR] [--timeout SECS]

Each idiom is a setup (the input: a vector, a string, a map) and a body
that walks it. Both are run at each size, the setup alone and the setup
with the body, and the difference divided by the size is the idiom's cost
per element, so building the input is not counted. A linear idiom's cost
per element stays flat from 1k to 100k; a quadratic one grows tenfold per
step. A run past --timeout seconds (default 300, under callgrind) is shown
as `>T`. Both sides print the same check line, compared.

The ptc binary defaults to $CARGO_TARGET_DIR/python/ptc (the `python`
profile: thin LTO, a few minutes to build; compare before and after in one
profile).
"""

import argparse
import os
import subprocess
import sys
import tempfile

import run
from run import print_table, real_python

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# name: (ptc setup, ptc body, python setup, python body); {n} is the size.
# A body prints one check line.
IDIOMS = {
    "reduce str onto acc": (
        "(def xs (vec (range {n})))",
        '(println (count (reduce (fn [acc x] (str acc x ",")) "" xs)))',
        "xs = list(range({n}))",
        'acc = ""\nfor x in xs:\n    acc += str(x) + ","\nprint(len(acc))',
    ),
    "apply str [acc x]": (
        "(def xs (vec (range {n})))",
        '(println (count (reduce (fn [acc x] (apply str [acc x ","])) "" xs)))',
        "xs = list(range({n}))",
        'acc = ""\nfor x in xs:\n    acc = "".join([acc, str(x), ","])\nprint(len(acc))',
    ),
    "subs walking a string": (
        '(def s (apply str (repeat {n} "a")))',
        '(def n (count s))\n(println (loop [i 0 k 0] (if (< i n) (recur (inc i) (if (= (subs s i (inc i)) "a") (inc k) k)) k)))',
        's = "a" * {n}',
        'n = len(s)\nk = 0\ni = 0\nwhile i < n:\n    if s[i:i + 1] == "a":\n        k += 1\n    i += 1\nprint(k)',
    ),
    "(< i (count s)) loop test": (
        '(def s (apply str (repeat {n} "a")))',
        "(println (loop [i 0] (if (< i (count s)) (recur (inc i)) i)))",
        's = "a" * {n}',
        "i = 0\nwhile i < len(s):\n    i += 1\nprint(i)",
    ),
    "nth walking a string": (
        '(def s (apply str (repeat {n} "a")))',
        '(def n (count s))\n(println (loop [i 0 k 0] (if (< i n) (recur (inc i) (if (= (nth s i) "a") (inc k) k)) k)))',
        's = "a" * {n}',
        'n = len(s)\nk = 0\ni = 0\nwhile i < n:\n    if s[i] == "a":\n        k += 1\n    i += 1\nprint(k)',
    ),
    "(count (keys m)) in a loop": (
        "(def m (zipmap (range {n}) (range {n})))",
        "(println (loop [i 0] (if (< i (count (keys m))) (recur (inc i)) i)))",
        "m = dict(zip(range({n}), range({n})))",
        "i = 0\nwhile i < len(m.keys()):\n    i += 1\nprint(i)",
    ),
    "(count (vals m)) in a loop": (
        "(def m (zipmap (range {n}) (range {n})))",
        "(println (loop [i 0] (if (< i (count (vals m))) (recur (inc i)) i)))",
        "m = dict(zip(range({n}), range({n})))",
        "i = 0\nwhile i < len(m.values()):\n    i += 1\nprint(i)",
    ),
    "into [] (concat acc [x])": (
        "(def xs (vec (range {n})))",
        "(println (count (reduce (fn [acc x] (into [] (concat acc [x]))) [] xs)))",
        "xs = list(range({n}))",
        "acc = []\nfor x in xs:\n    acc = list(acc + [x])\nprint(len(acc))",
    ),
    "loop (recur (rest v))": (
        "(def xs (vec (range {n})))",
        "(println (loop [v xs t 0] (if (seq v) (recur (rest v) (+ t (first v))) t)))",
        "xs = list(range({n}))",
        "t = 0\nit = iter(xs)\nfor x in it:\n    t += x\nprint(t)",
    ),
    "loop (recur (next v))": (
        "(def xs (vec (range {n})))",
        "(println (loop [v (seq xs) t 0] (if v (recur (next v) (+ t (first v))) t)))",
        "xs = list(range({n}))",
        "t = 0\nit = iter(xs)\nfor x in it:\n    t += x\nprint(t)",
    ),
}


def instructions(cmd, timeout):
    """(instructions, stdout) of one run under callgrind, or None past the timeout."""
    try:
        return run.instructions(cmd, timeout)
    except subprocess.TimeoutExpired:
        return None


def per_element(cmd_of, setup, body, n, work, ext, timeout):
    """Instructions per element of `body` after `setup` at size n, and the check line."""
    counts, line = [], ""
    if ext == ".py":
        # In a function: its variables are locals, as a program's would be
        # (CPython appends to a local string in place, not to a global).
        body = "def _body():\n" + "".join("    " + l + "\n" for l in body.splitlines()) + "_body()"
    for i, text in enumerate([setup, setup + "\n" + body]):
        path = os.path.join(work, f"p{i}{ext}")
        with open(path, "w") as f:
            f.write(text.replace("{n}", str(n)) + "\n")
        got = instructions(cmd_of(path), timeout)
        if got is None:
            return None, ""
        counts.append(got[0])
        line = got[1].strip().splitlines()[0] if got[1].strip() else ""
    return (counts[1] - counts[0]) / n, line


def main():
    ap = argparse.ArgumentParser()
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
    ap.add_argument("--ptc", default=os.path.join(target, "python", "ptc"))
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--only", default="")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--no-python", action="store_true")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    python = real_python()
    header = ["idiom"] + [f"ptc {n // 1000}k" for n in sizes]
    if not args.no_python:
        header += [f"py {n // 1000}k" for n in sizes] + [f"ptc/py {sizes[-1] // 1000}k"]
    rows = []
    with tempfile.TemporaryDirectory(prefix="ptc-idioms-") as work:
        for name, (pset, pbody, yset, ybody) in IDIOMS.items():
            if args.only not in name:
                continue
            row, last = [name], {}
            sides = [("ptc", lambda p: [args.ptc, "run", "--no-limits", p], pset, pbody, ".clj")]
            if not args.no_python:
                sides.append(("py", lambda p: [python, "-S", p], yset, ybody, ".py"))
            checks = {}
            for side, cmd_of, setup, body, ext in sides:
                for n in sizes:
                    per, line = per_element(cmd_of, setup, body, n, work, ext, args.timeout)
                    row.append(">T" if per is None else f"{per:,.0f}")
                    last[side] = per
                    if per is not None:
                        checks.setdefault(n, {})[side] = line
            for n, c in checks.items():
                if len(set(c.values())) > 1:
                    print(f"{name} at {n}: check lines differ: {c}", file=sys.stderr)
            if not args.no_python:
                p, y = last.get("ptc"), last.get("py")
                row.append(f"{p / y:.1f}" if p and y else "-")
            rows.append(row)
            print("  ".join(row), file=sys.stderr)
    print_table(header, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
