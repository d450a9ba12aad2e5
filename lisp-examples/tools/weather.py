#!/usr/bin/env python3
"""A command tool for ptc sessions (see session.md).

ptc starts this script once per call and writes {"tool": NAME, "args": [...]}
as JSON on stdin. The script answers one JSON value on stdout, or exits
non-zero with the error message on stderr (ptc turns it into a tool-error).
"""
import json
import sys

# Canned observations: a real tool would call a weather service here.
WEATHER = {
    "berlin": {"city": "Berlin", "temp_c": 14.5, "conditions": "overcast"},
    "lisbon": {"city": "Lisbon", "temp_c": 22.0, "conditions": "sunny"},
    "oslo": {"city": "Oslo", "temp_c": 6.0, "conditions": "light rain"},
    "madrid": {"city": "Madrid", "temp_c": 24.5, "conditions": "clear"},
}


def main():
    request = json.load(sys.stdin)
    args = request.get("args", [])
    if len(args) != 1 or not isinstance(args[0], str):
        print(f"{request.get('tool')} expects one city name, got {args!r}", file=sys.stderr)
        return 2
    city = args[0].strip().lower()
    if city not in WEATHER:
        print(f"no weather station for {args[0]!r}", file=sys.stderr)
        return 1
    json.dump(WEATHER[city], sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
