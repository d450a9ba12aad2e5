"""monty's reference agent run from Python: ten REPL feeds (orders data, a
function, a comprehension, a sum, a max-by, JSON, a discount, rounding, a
formatted report, a print) as ten turns of a `ptc_lisp.Session`, ten
`feed_run` calls of monty's in-process `MontyRepl`, and ten `exec` calls
of the Python equivalent in one namespace (CPython, the real interpreter).
Each run starts a new session / REPL / namespace, as an agent does per task.

    target/bench-venv/bin/pip install maturin pydantic-monty==0.0.18   # 1.4.0 has no MontyRepl
    (cd . && target/bench-venv/bin/maturin develop --release)   # or bash tests/python/run.sh
    target/bench-venv/bin/python tests/bench/turns.py

Prints the median and mean time of one ten-feed run for each (the three
alternate in batches of 10 runs, so that load weighs on all alike), the
ratios the issue's targets are stated in, and the memory of 10,000 live
sessions that each ran it (resident set growth / 10,000). The Rust side:
`cargo bench --bench turns` (tests/bench/turns.rs, the same feeds).
"""

import gc
import io
import statistics
import sys
import time
import contextlib

import ptc_lisp

try:
    import pydantic_monty
except ImportError:  # reported in the table
    pydantic_monty = None

RUNS = 1000
SESSIONS = 10_000

PTC_FEEDS = [
    """(def orders [{:id 1 :customer "ada" :price 12.5 :qty 2}
             {:id 2 :customer "bob" :price 99.0 :qty 1}
             {:id 3 :customer "cy" :price 4.25 :qty 10}
             {:id 4 :customer "dee" :price 30.0 :qty 3}
             {:id 5 :customer "eve" :price 7.75 :qty 4}])""",
    "(defn line-total [o] (* (:price o) (:qty o)))",
    "(def totals (vec (for [o orders] (line-total o))))",
    "(def grand (reduce + totals))",
    "(def biggest (apply max-key line-total orders))",
    "(def payload (json/write-str {:grand grand :biggest (:customer biggest)}))",
    "(def discounted (* grand 0.9))",
    "(def rounded (/ (Math/round (* discounted 100.0)) 100.0))",
    '(def report (format "%d orders, total %.2f, after discount %.2f, biggest %s" (count orders) grand rounded (:customer biggest)))',
    "(println report)",
]

PY_FEEDS = [
    """orders = [{"id": 1, "customer": "ada", "price": 12.5, "qty": 2},
          {"id": 2, "customer": "bob", "price": 99.0, "qty": 1},
          {"id": 3, "customer": "cy", "price": 4.25, "qty": 10},
          {"id": 4, "customer": "dee", "price": 30.0, "qty": 3},
          {"id": 5, "customer": "eve", "price": 7.75, "qty": 4}]""",
    "def line_total(o):\n    return o['price'] * o['qty']",
    "totals = [line_total(o) for o in orders]",
    "grand = sum(totals)",
    "biggest = max(orders, key=line_total)",
    "import json\npayload = json.dumps({'grand': grand, 'biggest': biggest['customer']})",
    "discounted = grand * 0.9",
    "rounded = round(discounted, 2)",
    "report = f\"{len(orders)} orders, total {grand:.2f}, after discount {rounded:.2f}, biggest {biggest['customer']}\"",
    "print(report)",
]

EXPECTED = "5 orders, total 287.50, after discount 258.75, biggest bob"


def ptc_run():
    s = ptc_lisp.Session("Summarise the orders", max_turns=len(PTC_FEEDS))
    for feed in PTC_FEEDS:
        s.run_turn(feed)
    return s


def monty_run():
    r = pydantic_monty.MontyRepl()
    out = []
    for feed in PY_FEEDS:
        r.feed_run(feed, print_callback=lambda _stream, text: out.append(text))
    return r


# "CPython exec" runs each feed's source (compiled on every run, as an
# agent host gets new text each turn); "CPython exec (code)" compiled once
PY_CODE = [compile(f, "<feed>", "exec") for f in PY_FEEDS]


class _Sink:
    def write(self, _text):
        pass

    def flush(self):
        pass


def cpython_run():
    ns = {"__builtins__": __builtins__}
    with contextlib.redirect_stdout(_Sink()):
        for code in PY_CODE:
            exec(code, ns)
    return ns


def cpython_source_run():
    ns = {"__builtins__": __builtins__}
    with contextlib.redirect_stdout(_Sink()):
        for feed in PY_FEEDS:
            exec(feed, ns)
    return ns


def check():
    s = ptc_run()
    turns = s.turns
    assert all(t.success for t in turns), [t.error for t in turns if not t.success]
    assert turns[-1].prints == [EXPECTED], turns[-1].prints
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        ns = {"__builtins__": __builtins__}
        for code in PY_CODE:
            exec(code, ns)
    assert buf.getvalue().strip() == EXPECTED, buf.getvalue()
    if pydantic_monty:
        out = []
        r = pydantic_monty.MontyRepl()
        for feed in PY_FEEDS:
            r.feed_run(feed, print_callback=lambda _s, t: out.append(t))
        assert "".join(out).strip() == EXPECTED, out


def timed(runs):
    impls = {
        "ptc Session": ptc_run,
        "CPython exec": cpython_source_run,
        "CPython exec (code)": cpython_run,
    }
    if pydantic_monty:
        impls["monty MontyRepl"] = monty_run
    times = {name: [] for name in impls}
    for f in impls.values():
        for _ in range(20):
            f()
    for _ in range(runs // 10):
        for name, f in impls.items():
            for _ in range(10):
                t = time.perf_counter()
                f()
                times[name].append(time.perf_counter() - t)
    return times


def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def memory(make):
    make()
    gc.collect()
    before = rss()
    live = [make() for _ in range(SESSIONS)]
    gc.collect()
    after = rss()
    del live
    gc.collect()
    return (after - before) / SESSIONS


def main():
    check()
    times = timed(RUNS)
    print(f"ten-feed agent run, {RUNS} runs each (Python {sys.version.split()[0]}"
          f"{', monty ' + getattr(pydantic_monty, '__version__', '?') if pydantic_monty else ', monty not installed'})")
    med = {}
    for name, ts in times.items():
        med[name] = statistics.median(ts)
        print(f"  {name:18} median {med[name] * 1e6:8.1f} us   mean {statistics.mean(ts) * 1e6:8.1f} us"
              f"   ({med[name] * 1e6 / len(PTC_FEEDS):.1f} us per turn)")
    print(f"  ptc / CPython exec: {med['ptc Session'] / med['CPython exec']:.2f}")
    if "monty MontyRepl" in med:
        print(f"  ptc / monty REPL:   {med['ptc Session'] / med['monty MontyRepl']:.2f}")
    print(f"memory of {SESSIONS} live sessions after the run (RSS growth / {SESSIONS}):")
    print(f"  ptc Session      {memory(ptc_run):9.0f} bytes")
    if pydantic_monty:
        print(f"  monty MontyRepl  {memory(monty_run):9.0f} bytes")
    print(f"  CPython dict     {memory(cpython_run):9.0f} bytes")


if __name__ == "__main__":
    main()
