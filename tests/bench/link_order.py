"""The link order of the `ptc` binary's code: which functions a run executes.

`build.rs` has the linker (LLD) place the functions listed in
`link-order.txt` first in `.text`, in that order, so that what a run
executes shares the pages the kernel maps for it instead of being spread
over the binary's 14 MB of code (see build.rs). This module writes that
list from callgrind runs of the benchmark programs, and counts how many of
its names a build has (a name changes when its function's signature or
the toolchain does; a missing one is skipped by the linker).

Used by `tests/bench/run.py --link-order` (write) and by every table run
(count).
"""

import collections
import os
import re
import subprocess
import tempfile

LINK_ORDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "link-order.txt")

HEADER = """\
# The functions a `ptc run` executes, hottest first: in how many of the
# benchmark programs (and a start-up program) each ran, then its own
# instructions over all of them. build.rs places them first in the release
# binary's code. Written by `python3 tests/bench/run.py --link-order`;
# names are as mangled in this crate's release build (a new toolchain or
# crate version renames them all: write the list again).
"""


def executed(ptc, program):
    """{symbol: own instructions} of the functions in the `ptc` binary that one
    run of `program` executed (callgrind, names not demangled)."""
    with tempfile.NamedTemporaryFile(suffix=".callgrind") as out:
        cmd = ["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out.name}",
               ptc, "run", "--no-limits", program]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr.strip()[-300:]}")
        return own_costs(out.name, os.path.realpath(ptc))


def own_costs(path, binary):
    """{function: own instructions} for the functions of `binary` in a
    callgrind output file (name compression and call lines understood)."""
    names = {"ob": {}, "fn": {}}
    ob = fn = None
    after_calls = False
    costs = collections.Counter()
    with open(path, errors="replace") as f:
        for line in f:
            key, eq, rest = line.rstrip("\n").partition("=")
            if eq and key in ("ob", "cob", "fn", "cfn"):
                table = names[key[-2:]]
                m = re.match(r"\((\d+)\)(?: (.*))?$", rest)
                name = (table.setdefault(m.group(1), m.group(2)) if m.group(2) else table.get(m.group(1))) if m else rest
                if key == "ob":
                    ob = name
                elif key == "fn":
                    fn = name
            elif eq and key == "calls":
                after_calls = True  # the next cost line is the call's inclusive cost
            elif line[:1].isdigit() or line[:1] in "+-*":
                if after_calls:
                    after_calls = False
                elif ob and os.path.realpath(ob) == binary:
                    fields = line.split()
                    if len(fields) >= 2:
                        costs[fn] += int(fields[1])
    # callgrind marks recursion levels as name'2; addresses have no symbol
    merged = collections.Counter()
    for name, cost in costs.items():
        name = re.sub(r"'\d+$", "", name)
        if not name.startswith(("0x", "(")):
            merged[name] += cost
    return merged


def write(ptc, programs):
    """Write link-order.txt from one callgrind run of each program; the number
    of functions listed."""
    runs, total = collections.Counter(), collections.Counter()
    for program in programs:
        for name, cost in executed(ptc, program).items():
            runs[name] += 1
            total[name] += cost
    order = sorted(total, key=lambda n: (-runs[n], -total[n], n))
    with open(LINK_ORDER, "w") as f:
        f.write(HEADER)
        f.writelines(name + "\n" for name in order)
    return len(order)


def listed():
    """The names in link-order.txt (none when it is absent)."""
    if not os.path.exists(LINK_ORDER):
        return []
    with open(LINK_ORDER) as f:
        return [l.strip() for l in f if l.strip() and not l.startswith("#")]


def coverage(ptc):
    """(found, listed): how many listed names the binary's symbol table has."""
    names = listed()
    out = subprocess.run(["nm", "--defined-only", ptc], capture_output=True, text=True, check=True).stdout
    symbols = {line.split()[-1] for line in out.splitlines() if line.strip()}
    return sum(n in symbols for n in names), len(names)
