#!/usr/bin/env python3
"""Differential tests: run plain-Clojure programs through Clojure 1.11 and ptc.

See README.md beside this file. Standard library only.

Classes:
  match                Clojure and ptc agree (value and printed lines).
  expected-difference  they disagree (or one errs) and the program is listed in
                       expected-differences.txt with its reason.
  mismatch             both succeed but disagree, unlisted.            (failed)
  ptc-error            ptc fails where Clojure succeeds, unlisted.      (failed)
  both-error           both fail (programs that test errors); counted as passed.
  clojure-error        Clojure fails but ptc succeeds (the program is not valid
                       Clojure, or ptc is more lenient), unlisted.     (skipped)
"""

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CLOJURE_JARS = [
    "/usr/share/java/clojure-1.11.jar",
    "/usr/share/java/clojure.jar",
]

FAILING = ("mismatch", "ptc-error")
CLASSES = ("match", "both-error", "expected-difference", "mismatch", "ptc-error", "clojure-error")


def find_clojure_jar():
    jar = os.environ.get("CLOJURE_JAR")
    if jar:
        return jar if os.path.exists(jar) else None
    for j in CLOJURE_JARS:
        if os.path.exists(j):
            return j
    return None


def find_ptc(args):
    """The ptc binary: --ptc, $PTC, or a fresh `cargo build --release`."""
    if args.ptc:
        return args.ptc
    if os.environ.get("PTC"):
        return os.environ["PTC"]
    print("building ptc (cargo build --release) ...", flush=True)
    r = subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT)
    if r.returncode != 0:
        sys.exit("differential: cargo build failed")
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
    return os.path.join(target, "release", "ptc")


def load_expected(path):
    """name -> reason, from lines `NAME  reason` (# starts a comment)."""
    expected = {}
    if not os.path.exists(path):
        return expected
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 1)
            name = parts[0].removesuffix(".clj")
            if len(parts) < 2:
                sys.exit("%s:%d: %s has no reason" % (path, lineno, name))
            expected[name] = parts[1].strip()
    return expected


def run_clojure(jar, files, timeout_ms):
    """Runs every file in one JVM; returns path -> record."""
    cmd = ["java", "-Xss16m", "-cp", jar, "clojure.main", os.path.join(HERE, "driver.clj"), str(timeout_ms)] + files
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=max(600, len(files) * timeout_ms / 1000 + 60))
    records = {}
    for line in r.stdout.splitlines():
        if line.startswith("{"):
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue
            records[rec["name"]] = rec
    missing = [f for f in files if f not in records]
    if missing:
        # The driver itself broke: that is a harness failure, not a program's.
        sys.exit(
            "differential: the Clojure driver gave no result for %d programs (first: %s)\nJVM stderr:\n%s"
            % (len(missing), missing[0], r.stderr.strip()[-2000:])
        )
    return records


def ptc_run(ptc, path=None, source=None, timeout=30):
    """(ok, prints, value_text, error_text) for one ptc run."""
    cmd = [ptc, "run", path if path else "-"]
    try:
        r = subprocess.run(cmd, input=source, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, [], None, "ptc did not finish in %d s" % timeout
    lines = r.stdout.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if r.returncode == 0 and lines:
        return True, lines[:-1], lines[-1], None
    return False, lines, None, (r.stderr.strip() or "exit code %d" % r.returncode)


class Normalizer:
    """Reads text with ptc's reader and prints it with ptc's printer (cached)."""

    def __init__(self, ptc):
        self.ptc = ptc
        self.cache = {}

    def value(self, text):
        """to_clojure of the form in text, or None when ptc cannot read it."""
        return self._norm("(quote %s)" % text)

    def line(self, text):
        """A printed line as the vector of the forms on it, or None."""
        return self._norm("(quote [%s])" % text)

    def _norm(self, src):
        if src not in self.cache:
            ok, _, value, _ = ptc_run(self.ptc, source=src)
            self.cache[src] = value if ok else None
        return self.cache[src]


def out_lines(text):
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def compare_prints(norm, clj_lines, ptc_lines):
    """None when the printed lines agree, else a description of the first difference."""
    n = max(len(clj_lines), len(ptc_lines))
    for i in range(n):
        c = clj_lines[i] if i < len(clj_lines) else None
        p = ptc_lines[i] if i < len(ptc_lines) else None
        if c == p:
            continue
        if c is not None and p is not None:
            nc, np_ = norm.line(c), norm.line(p)
            if nc is not None and nc == np_:
                continue
        return "printed line %d: clojure %s, ptc %s" % (
            i + 1,
            json.dumps(c) if c is not None else "(none)",
            json.dumps(p) if p is not None else "(none)",
        )
    return None


def classify(name, clj, ptc_res, norm, expected):
    """A result dict for one program."""
    p_ok, p_prints, p_value, p_err = ptc_res
    res = {
        "name": name,
        "clojure": clj.get("value") if clj["ok"] else None,
        "clojure_error": None if clj["ok"] else clj.get("error"),
        "clojure_out": clj.get("out", ""),
        "ptc": p_value,
        "ptc_error": p_err,
        "ptc_out": "\n".join(p_prints),
        "detail": None,
    }
    if clj["ok"] and p_ok:
        differences = []
        c_norm = clj["value"] if clj["value"] == p_value else norm.value(clj["value"])
        res["clojure_normalized"] = c_norm
        if c_norm is None:
            differences.append("ptc cannot read Clojure's value %s" % clj["value"])
        elif c_norm != p_value:
            differences.append("value: clojure %s, ptc %s" % (c_norm, p_value))
        pd = compare_prints(norm, out_lines(clj.get("out", "")), p_prints)
        if pd:
            differences.append(pd)
        cls = "mismatch" if differences else "match"
        res["detail"] = "; ".join(differences) or None
    elif clj["ok"]:
        cls = "ptc-error"
        res["detail"] = "ptc failed: %s" % first_line(p_err)
    elif p_ok:
        cls = "clojure-error"
        res["detail"] = "clojure failed: %s; ptc gave %s" % (clj.get("error"), p_value)
    else:
        cls = "both-error"
        res["detail"] = "clojure failed: %s; ptc failed: %s" % (clj.get("error"), first_line(p_err))
    if name in expected:
        res["reason"] = expected[name]
        if cls in ("match", "both-error"):
            res["stale"] = True  # listed, but agrees: the entry is stale
        else:
            cls = "expected-difference"
    res["class"] = cls
    return res


def first_line(text):
    """The kind and message of a ptc diagnostic (`KIND` line, then `× message`)."""
    if not text:
        return ""
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    kind = lines[0] if lines else ""
    msg = next((l.lstrip("× ").strip() for l in lines[1:] if l.startswith("×")), "")
    return "%s: %s" % (kind, msg) if msg else kind


def show(res, verbose):
    print("%s %s" % (res["class"].upper(), res["name"]))
    if res.get("reason"):
        print("  listed: %s" % res["reason"])
    src_path = res["path"]
    with open(src_path) as f:
        src = [l for l in f.read().splitlines() if not l.startswith(";; generated")]
    for l in src[:8]:
        print("  | %s" % l)
    if len(src) > 8:
        print("  | ...")
    if res["detail"]:
        print("  %s" % res["detail"])
    if verbose or res["class"] != "match":
        if res["clojure"] is not None:
            print("  clojure value: %s" % res["clojure"])
        if res["ptc"] is not None:
            print("  ptc value:     %s" % res["ptc"])
        if res["ptc_error"] and verbose:
            for l in res["ptc_error"].splitlines()[:8]:
                print("  ptc stderr: %s" % l)
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", help="only programs whose name contains one of these")
    ap.add_argument("--programs", default=os.path.join(HERE, "programs"), help="directory of *.clj programs")
    ap.add_argument("--expected", default=os.path.join(HERE, "expected-differences.txt"))
    ap.add_argument("--ptc", help="ptc binary (default: $PTC, else cargo build --release)")
    ap.add_argument("--timeout-ms", type=int, default=10000, help="per-program Clojure timeout")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="parallel ptc runs")
    ap.add_argument("-v", "--verbose", action="store_true", help="also show expected differences and matches")
    ap.add_argument("--report", help="write one JSON object per program to this file")
    args = ap.parse_args()

    jar = find_clojure_jar()
    if jar is None or shutil.which("java") is None:
        print("SKIP differential tests: Clojure is not installed (apt-get install clojure); nothing was run.")
        return 0

    files = sorted(
        os.path.join(args.programs, f) for f in os.listdir(args.programs) if f.endswith(".clj")
    )
    if args.names:
        files = [f for f in files if any(n in os.path.basename(f) for n in args.names)]
    if not files:
        print("differential: no programs selected")
        return 1
    expected = load_expected(args.expected)
    ptc = find_ptc(args)

    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as jvm_pool:
        clj_future = jvm_pool.submit(run_clojure, jar, files, args.timeout_ms)
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            ptc_results = dict(zip(files, pool.map(lambda f: ptc_run(ptc, path=f), files)))
        t_ptc = time.time() - t0
        clj_results = clj_future.result()
    t_clj = time.time() - t0

    norm = Normalizer(ptc)
    results = []

    def one(f):
        name = os.path.basename(f).removesuffix(".clj")
        res = classify(name, clj_results[f], ptc_results[f], norm, expected)
        res["path"] = f
        return res

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(one, files))
    t_all = time.time() - t0

    counts = {c: 0 for c in CLASSES}
    for res in results:
        counts[res["class"]] += 1
        quiet = ("match", "both-error", "expected-difference")
        if res["class"] not in quiet or args.verbose:
            show(res, args.verbose)
    stale = [r["name"] for r in results if r.get("stale")]
    selected = {os.path.basename(f).removesuffix(".clj") for f in files}
    unknown = [n for n in expected if n not in selected] if not args.names else []

    if args.report:
        with open(args.report, "w") as f:
            for res in results:
                f.write(json.dumps(res) + "\n")

    print("differential: %d programs" % len(results))
    for c in CLASSES:
        print("  %-20s %d" % (c, counts[c]))
    if stale:
        print("  note: listed in expected-differences.txt but now matching: %s" % " ".join(stale))
    if unknown:
        print("  note: expected-differences.txt names unknown programs: %s" % " ".join(unknown))
    print("  time: ptc %.1f s, clojure (one JVM) %.1f s, total %.1f s" % (t_ptc, t_clj, t_all))
    passed = counts["match"] + counts["both-error"] + counts["expected-difference"]
    failed = sum(counts[c] for c in FAILING)
    print("%d passed, %d failed, %d skipped" % (passed, failed, counts["clojure-error"]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
