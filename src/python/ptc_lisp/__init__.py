"""ptc_lisp: run LLM-written PTC-Lisp programs in a sandbox, turn by turn.

    import ptc_lisp
    ptc_lisp.run("(+ 1 2)").value                       # 3
    session = ptc_lisp.Session("Find the cheapest product", data={"products": [...]})
    messages = session.next_prompt()                     # [{"role", "content"}] for the LLM
    turn = session.run_turn(llm_response)                # a failing program is a failed turn

Evaluation runs in Rust with the GIL released; Python tools are called
with the GIL held. See the README's "Python" section for the API table and
the conversions.
"""

import os
from typing import Any, Callable, Literal, Mapping, Optional, Sequence, TypedDict, TypeVar, Union, overload

from ._ptc_lisp import (
    ArityError,
    ConversionError,
    ExecutionError,
    FailError,
    InternalError,
    Keyword,
    LimitExceededError,
    MemoryExceededError,
    ParseError,
    PtcArithmeticError,
    PtcError,
    PtcTimeoutError,
    PtcTypeError,
    Preview,
    RunResult,
    Session,
    SessionError,
    Tool,
    ToolError,
    Turn,
    UndefinedError,
    ValidationError,
    __version__,
    run,
    system_prompt,
)

F = TypeVar("F", bound=Callable[..., Any])

# Types for annotations (the stubs, __init__.pyi, describe them too).

Value = Any
"""A converted PTC-Lisp value: None, bool, int, float, str, list, dict, set
(tuple/frozenset inside map keys and sets), or Keyword."""


class Message(TypedDict):
    """One chat message, as `Session.next_prompt` gives them."""

    role: Literal["system", "user", "assistant"]
    content: str


class AnthropicPrompt(TypedDict):
    """`Session.next_prompt_anthropic()`: the system text apart from the messages."""

    system: str
    messages: "list[Message]"


class PendingCall(TypedDict):
    """A call a paused turn waits on: `id` (what resume approves or denies), the tool, its arguments and, for a write, its idempotency key."""

    id: str
    tool: str
    args: "list[Value]"
    key: Optional[str]


class PreviewedWrite(TypedDict):
    """A write a preview would have made: its call site, tool and arguments."""

    at: str
    tool: str
    args: "list[Value]"


class ToolCall(TypedDict):
    """One tool call of a turn: `result` is None when it failed, `error` the tool's message."""

    name: str
    args: "list[Value]"
    result: Value
    error: Optional[str]


class LimitsDict(TypedDict, total=False):
    """`limits=`: the keys of a session file's "limits"; None turns a limit off."""

    timeout_ms: Optional[int]
    max_steps: Optional[int]
    max_depth: Optional[int]
    max_heap_bytes: Optional[int]
    max_print_bytes: Optional[int]
    max_tool_calls: Optional[int]
    max_source_bytes: Optional[int]


class RenderDict(TypedDict, total=False):
    """`render=`: the keys of a session file's "render" (rendering.md R-02)."""

    println_limit: int
    tool_call_limit: int
    sample_limit: int
    sample_printable_limit: int
    args_limit: int
    args_printable_limit: int
    print_char_limit: int
    show_tool_results: bool
    show_last_result: bool
    keep_failed_turn_calls: bool
    max_parallel_tool_calls: int


Limits = Union[LimitsDict, Literal["none"], None]
Tools = Union[Mapping[str, Union[Callable[..., Any], Tool]], Sequence[Union[Tool, Callable[..., Any]]], None]
PathLike = Union[str, "os.PathLike[str]"]


@overload
def tool(function: F) -> Tool: ...
@overload
def tool(
    function: None = None,
    *,
    name: Optional[str] = None,
    signature: Optional[str] = None,
    description: Optional[str] = None,
    effect: Optional[Literal["read", "write"]] = None,
    approval: bool = False,
    idempotent: bool = False,
    preview: Any = None,
) -> Callable[[F], Tool]: ...
def tool(
    function: Optional[F] = None,
    *,
    name: Optional[str] = None,
    signature: Optional[str] = None,
    description: Optional[str] = None,
    effect: Optional[Literal["read", "write"]] = None,
    approval: bool = False,
    idempotent: bool = False,
    preview: Any = None,
) -> Union[Tool, Callable[[F], Tool]]:
    """Makes a function a ptc tool: ``@tool`` or ``@tool(signature=...)``.

    ``name`` defaults to the function's name with ``_`` written ``-``;
    ``signature`` (``"(query :string) -> [:map]"``) to one derived from its
    parameters (each ``:any``); ``description`` to the first paragraph of
    its docstring. The result is still callable from Python; pass it in
    ``tools=[...]``.

    ``effect="write"`` marks a tool that changes the world (a read
    otherwise): its calls get an idempotency key (the keyword
    ``idempotency_key``, when the function takes it or ``**kwargs``), are
    previewed (``preview`` is what a preview answers) and, with
    ``approval=True`` or ``Session(approval="writes")``, wait for approval.
    ``idempotent=True``: running it again with the same key is safe. An
    ``async def`` function is awaited.
    """

    def wrap(f: F) -> Tool:
        return Tool(
            f,
            name=name,
            signature=signature,
            description=description,
            effect=effect,
            approval=approval,
            idempotent=idempotent,
            preview=preview,
        )

    if function is not None:
        return wrap(function)
    return wrap


__all__ = [
    "AnthropicPrompt",
    "Limits",
    "LimitsDict",
    "Message",
    "PathLike",
    "PendingCall",
    "Preview",
    "PreviewedWrite",
    "RenderDict",
    "ToolCall",
    "Tools",
    "Value",
    "ArityError",
    "ConversionError",
    "ExecutionError",
    "FailError",
    "InternalError",
    "Keyword",
    "LimitExceededError",
    "MemoryExceededError",
    "ParseError",
    "PtcArithmeticError",
    "PtcError",
    "PtcTimeoutError",
    "PtcTypeError",
    "RunResult",
    "Session",
    "SessionError",
    "Tool",
    "ToolError",
    "Turn",
    "UndefinedError",
    "ValidationError",
    "__version__",
    "run",
    "system_prompt",
    "tool",
]
