"""Many missions in worker processes: the Python guide's ProcessPoolExecutor example.

A Session pickles as its session file plus the tools it was given (pickled
by reference: module-level functions), so it can be sent to a worker
process, driven there, and sent back with its turns. Here a scripted stand-in
answers for the LLM; with a real one, call the SDK inside `solve`.
"""

from concurrent.futures import ProcessPoolExecutor

import ptc_lisp


def price_of(name: str) -> int:
    """A live tool (module-level, so it pickles by name)."""
    return {"apple": 3, "pear": 5, "fig": 7}[name]


def fake_llm(messages: list, turn: int) -> str:
    """Turn 1 defines, turn 2 returns (a real client goes here)."""
    if turn == 0:
        return "```clojure\n(def total (reduce + (map tool/price-of data/items)))\n```"
    return "```clojure\n(return total)\n```"


def solve(session: ptc_lisp.Session) -> ptc_lisp.Session:
    """Runs one mission to its end in this (worker) process."""
    while session.status == "running":
        session.run_turn(fake_llm(session.next_prompt(), len(session.turns)))
    return session


def missions() -> list:
    baskets = [["apple"], ["apple", "pear"], ["fig", "fig"], ["pear", "fig", "apple"]]
    return [
        ptc_lisp.Session(
            "Total price of the basket",
            data={"items": items},
            tools={"price-of": price_of},
        )
        for items in baskets
    ]


def run_all(workers: int = 2) -> list:
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(solve, missions()))


if __name__ == "__main__":
    for s in run_all():
        print(s.status, s.result)
