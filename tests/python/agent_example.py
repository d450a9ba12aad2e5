"""The Python guide's agent loop (docs/python.md), run against a fake OpenAI client (no network).

`python tests/python/agent_example.py` takes the first ```python block of
the Python guide (docs/python.md), puts a scripted stand-in for the `openai`
package in `sys.modules`, and runs the block as it is written. The pytest
suite (test_agent_loop.py) runs it the same way and checks what happened.
"""

import re
import sys
import types
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "docs" / "python.md"

# What the fake model answers, turn by turn: a typo first (a failed turn the
# model sees and fixes), then the work, then the answer.
SCRIPT = [
    "Let me fetch the reviews.\n```clojure\n"
    "(def reviews (mapcat #(tool/search-reviews (:name %)) data/product))\n```",
    "Fixed the name.\n```clojure\n"
    "(def reviews (mapcat #(tool/search-reviews (:name %)) data/products))\n"
    "(println (count reviews) \"reviews\")\n```",
    "```clojure\n(return (map :product (filter #(>= (:stars %) 4.5) reviews)))\n```",
]


def readme_loop() -> str:
    """The agent loop's source, from the Python guide (docs/python.md)."""
    text = README.read_text()
    section = text
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


class FakeOpenAI:
    """Answers `chat.completions.create` from SCRIPT and records the messages it got."""

    def __init__(self, *args, **kwargs):
        self.calls = []
        self.chat = types.SimpleNamespace(completions=types.SimpleNamespace(create=self.create))
        FakeOpenAI.last = self

    def create(self, model, messages, **kwargs):
        self.calls.append(messages)
        content = SCRIPT[len(self.calls) - 1]
        message = types.SimpleNamespace(role="assistant", content=content)
        return types.SimpleNamespace(choices=[types.SimpleNamespace(message=message)])


def run_readme_loop() -> dict:
    """Runs the guide's loop with the fake client; returns its globals."""
    fake = types.ModuleType("openai")
    fake.OpenAI = FakeOpenAI
    saved = sys.modules.get("openai")
    sys.modules["openai"] = fake
    try:
        scope: dict = {"__name__": "readme_agent_loop"}
        exec(compile(readme_loop(), "docs/python.md (agent loop)", "exec"), scope)
        scope["fake_client"] = FakeOpenAI.last
        return scope
    finally:
        if saved is None:
            del sys.modules["openai"]
        else:
            sys.modules["openai"] = saved


if __name__ == "__main__":
    run_readme_loop()
