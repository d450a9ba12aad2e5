"""The Python guide's 20-line agent loop, with a fake LLM client (agent_example.py)."""

from agent_example import SCRIPT, readme_loop, run_readme_loop


def test_readme_loop_is_about_20_lines():
    lines = [line for line in readme_loop().splitlines() if line.strip()]
    assert len(lines) <= 22, len(lines)


def test_readme_agent_loop_runs_to_the_answer(capsys):
    scope = run_readme_loop()
    session, fake = scope["session"], scope["fake_client"]
    assert session.status == "returned"
    assert session.result == ["Laptop"]
    assert [t.success for t in session.turns] == [False, True, True]
    assert len(fake.calls) == len(SCRIPT)
    # Every call got chat messages; the second one shows the model its error.
    for messages in fake.calls:
        assert messages[0]["role"] == "system" and all(set(m) == {"role", "content"} for m in messages)
    assert "data/product" in fake.calls[1][-1]["content"]
    assert "2 reviews" in fake.calls[2][-1]["content"]
    out = capsys.readouterr().out
    assert "turn 1: " in out and "returned ['Laptop']" in out
