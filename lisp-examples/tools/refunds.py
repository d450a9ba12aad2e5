#!/usr/bin/env python3
"""The command tools of refunds.json: a read (`find-order`) and a write
(`refund-order`) that keeps its refunds in refunds.log beside this script and
honours the idempotency key ptc sends with every write: the same key
twice refunds once (so the session may declare it "idempotent")."""
import json
import os
import sys
import time

ORDERS = {
    "A-1": {"id": "A-1", "customer": "ann", "total": 40, "status": "damaged"},
    "A-2": {"id": "A-2", "customer": "bob", "total": 15, "status": "delivered"},
    "A-3": {"id": "A-3", "customer": "cy", "total": 120, "status": "damaged"},
    "A-4": {"id": "A-4", "customer": "dee", "total": 9, "status": "damaged"},
}
LOG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "refunds.log")


def main():
    request = json.load(sys.stdin)
    tool, args = request["tool"], request.get("args", [])
    if tool == "find-order":
        time.sleep(0.2)  # a slow service: pmap asks for several at once
        order = ORDERS.get(args[0])
        if order is None:
            print(f"no order {args[0]!r}", file=sys.stderr)
            return 1
        json.dump(order, sys.stdout)
        return 0
    if tool == "refund-order":
        key = request.get("idempotency_key")
        done = {}
        if os.path.exists(LOG):
            with open(LOG) as f:
                done = {e["key"]: e for e in map(json.loads, f)}
        if key in done:
            json.dump(done[key]["receipt"], sys.stdout)
            return 0
        receipt = {"order": args[0], "amount": args[1], "receipt": f"R-{len(done) + 1}"}
        with open(LOG, "a") as f:
            f.write(json.dumps({"key": key, "receipt": receipt}) + "\n")
        json.dump(receipt, sys.stdout)
        return 0
    print(f"unknown tool {tool!r}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
