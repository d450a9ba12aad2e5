"""ptc_lisp from Python against pydantic-monty doing the same work, in one run.

    bash tests/python/run.sh                                  # builds ptc_lisp into target/python-venv
    target/python-venv/bin/pip install pydantic-monty
    target/python-venv/bin/python tests/bench/python.py

Two workloads, each timed per call (median and mean over many calls, after
a warm-up; the implementations alternate in batches of 10 calls, so that
the machine's load weighs on all alike), as an agent host pays them:

* a trivial turn: `(+ 1 2)` / `1 + 2`;
* a typical 20-line data program: filter 200 orders, group by region,
  per-region revenue/average/max with a rate from a tool call, top three
  customers, one print.

ptc is measured as `ptc_lisp.run(...)` (a fresh interpreter, data converted
on every call) and as a turn of a `Session` (data converted once; each turn
also renders the next prompt). Monty is measured as `feed_run` in a checked
out session of a started pool (its sandbox is a worker process; pool start
and checkout are reported once), with the data passed as `inputs` on each
call, which is how monty takes data. Both programs' results are compared.
Numbers from one run on one machine are the ones to compare.
"""

import random
import statistics
import sys
import time

import ptc_lisp

try:
    import pydantic_monty
except ImportError:  # reported in the table
    pydantic_monty = None

TRIVIAL_RUNS = 500
DATA_RUNS = 100

PTC_PROGRAM = """
(def rate (tool/get-rate "EUR"))
(def paid (filter #(= (:status %) "paid") data/orders))
(def by-region (group-by :region paid))
(defn summarize [[region orders]]
  (let [totals (map #(* rate (:amount %)) orders)
        n (count orders)]
    {:region region
     :orders n
     :revenue (reduce + totals)
     :average (/ (reduce + totals) n)
     :largest (apply max totals)}))
(def summary (sort-by :revenue > (map summarize by-region)))
(def top-customers
  (->> paid
       (group-by :customer)
       (map (fn [[c os]] [c (reduce + (map :amount os))]))
       (sort-by second >)
       (take 3)
       (map first)))
(println "regions:" (count summary))
{:summary summary :top top-customers :paid (count paid)}
"""

PY_PROGRAM = """
rate = get_rate("EUR")
paid = [o for o in orders if o["status"] == "paid"]
by_region = {}
for o in paid:
    by_region.setdefault(o["region"], []).append(o)
def summarize(region, rows):
    totals = [rate * o["amount"] for o in rows]
    n = len(rows)
    return {"region": region, "orders": n, "revenue": sum(totals),
            "average": sum(totals) / n, "largest": max(totals)}
summary = sorted([summarize(r, rows) for r, rows in by_region.items()],
                 key=lambda s: s["revenue"], reverse=True)
by_customer = {}
for o in paid:
    by_customer[o["customer"]] = by_customer.get(o["customer"], 0) + o["amount"]
top = [c for c, _ in sorted(by_customer.items(), key=lambda kv: kv[1], reverse=True)[:3]]
print("regions:", len(summary))
{"summary": summary, "top": top, "paid": len(paid)}
"""


def orders(n=200):
    rng = random.Random(1)
    return [
        {
            "id": i,
            "customer": f"c{rng.randrange(40)}",
            "region": rng.choice(["north", "south", "east", "west", "central"]),
            "status": rng.choice(["paid", "paid", "paid", "refunded", "pending"]),
            "amount": rng.randrange(5, 500),
        }
        for i in range(n)
    ]


def get_rate(currency):
    return 1.08


def sampler(f):
    """`f` as a function of n returning n samples in µs (`f` itself when it
    is already one: a function named `measure`)."""
    if f.__name__ == "measure":
        return f

    def measure(n):
        samples = []
        for _ in range(n):
            start = time.perf_counter()
            f()
            samples.append((time.perf_counter() - start) * 1e6)
        return samples

    return measure


def timed_together(cases, runs, batch=10):
    """Median and mean µs per call of each (label, f), measured in
    interleaved batches so that the machine's load weighs on all alike."""
    measures = [sampler(f) for _, f in cases]
    for m in measures:
        m(min(20, runs))  # warm-up
    samples = [[] for _ in cases]
    for _ in range(0, runs, batch):
        for i, m in enumerate(measures):
            samples[i].extend(m(batch))
    return [(label, statistics.median(s), statistics.fmean(s)) for (label, _), s in zip(cases, samples)]


def ptc_cases(data):
    tools = {"get-rate": get_rate}

    def session_turns(program, with_data):
        """Times one turn of 5-turn sessions (building them is not timed)."""

        def measure(runs):
            samples, session = [], None
            for _ in range(runs):
                if session is None or session.status != "running":
                    session = ptc_lisp.Session("bench", data={"orders": data} if with_data else None,
                                               tools=tools, max_turns=5)
                start = time.perf_counter()
                turn = session.run_turn(program)
                samples.append((time.perf_counter() - start) * 1e6)
                assert turn.success, turn.error
            return samples

        return measure

    trivial_run = lambda: ptc_lisp.run("(+ 1 2)")
    data_run = lambda: ptc_lisp.run(PTC_PROGRAM, data={"orders": data}, tools=tools)
    return {
        "trivial": [("ptc_lisp.run", trivial_run), ("ptc Session.run_turn", session_turns("(+ 1 2)", False))],
        "data": [("ptc_lisp.run (data each call)", data_run),
                 ("ptc Session.run_turn (data once)", session_turns(PTC_PROGRAM, True))],
    }


def main():
    data = orders()
    ptc_value = ptc_lisp.run(PTC_PROGRAM, data={"orders": data}, tools={"get-rate": get_rate})
    assert ptc_value.ok, ptc_value.error
    cases = ptc_cases(data)
    if pydantic_monty is None:
        note = "pydantic-monty is not installed: pip install pydantic-monty"
        rows = [("trivial turn", *r) for r in timed_together(cases["trivial"], TRIVIAL_RUNS)]
        rows += [("20-line data program", *r) for r in timed_together(cases["data"], DATA_RUNS)]
    else:
        from pydantic_monty import CollectString, Monty

        start = time.perf_counter()
        with Monty() as pool:
            started = time.perf_counter()
            with pool.checkout() as session:
                checked_out = time.perf_counter()
                lookup = {"get_rate": get_rate}
                out = CollectString()
                monty_value = session.feed_run(PY_PROGRAM, inputs={"orders": data},
                                               external_lookup=lookup, print_callback=out)
                same = monty_value == ptc_value.value and out.output.strip() == ptc_value.prints[0]
                trivial = cases["trivial"] + [("monty feed_run", lambda: session.feed_run("1 + 2"))]
                data_cases = cases["data"] + [(
                    "monty feed_run (inputs each call)",
                    lambda: session.feed_run(PY_PROGRAM, inputs={"orders": data}, external_lookup=lookup,
                                             print_callback=CollectString()),
                )]
                rows = [("trivial turn", *r) for r in timed_together(trivial, TRIVIAL_RUNS)]
                rows += [("20-line data program", *r) for r in timed_together(data_cases, DATA_RUNS)]
        note = (f"monty {getattr(pydantic_monty, '__version__', '')}: pool start "
                f"{(started - start) * 1e3:.1f} ms, checkout {(checked_out - started) * 1e3:.1f} ms; "
                f"same result as ptc: {same}")

    print(f"Python {sys.version.split()[0]}, ptc_lisp {ptc_lisp.__version__}")
    print()
    print("| workload | implementation | median µs | mean µs |")
    print("|---|---|---:|---:|")
    for workload, label, median, mean in rows:
        print(f"| {workload} | {label} | {median:.1f} | {mean:.1f} |")
    print()
    print(note)


if __name__ == "__main__":
    main()
