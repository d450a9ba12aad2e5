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

from typing import Any, Callable, Optional, TypeVar, Union, overload

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


@overload
def tool(function: F) -> Tool: ...
@overload
def tool(
    function: None = None,
    *,
    name: Optional[str] = None,
    signature: Optional[str] = None,
    description: Optional[str] = None,
) -> Callable[[F], Tool]: ...
def tool(
    function: Optional[F] = None,
    *,
    name: Optional[str] = None,
    signature: Optional[str] = None,
    description: Optional[str] = None,
) -> Union[Tool, Callable[[F], Tool]]:
    """Makes a function a ptc tool: ``@tool`` or ``@tool(signature=...)``.

    ``name`` defaults to the function's name with ``_`` written ``-``;
    ``signature`` (``"(query :string) -> [:map]"``) to one derived from its
    parameters (each ``:any``); ``description`` to the first paragraph of
    its docstring. The result is still callable from Python; pass it in
    ``tools=[...]``.
    """

    def wrap(f: F) -> Tool:
        return Tool(f, name=name, signature=signature, description=description)

    if function is not None:
        return wrap(function)
    return wrap


__all__ = [
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
