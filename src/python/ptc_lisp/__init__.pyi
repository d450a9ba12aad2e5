"""Type stubs of ptc_lisp (the native module's classes and functions)."""

import os
from typing import Any, Callable, Literal, Mapping, Optional, Sequence, TypedDict, TypeVar, Union, final, overload

__version__: str

Value = Any

class Message(TypedDict):
    role: Literal["system", "user", "assistant"]
    content: str

class AnthropicPrompt(TypedDict):
    system: str
    messages: list[Message]

class PendingCall(TypedDict):
    id: str
    tool: str
    args: list[Value]
    key: Optional[str]

class PreviewedWrite(TypedDict):
    at: str
    tool: str
    args: list[Value]

class ToolCall(TypedDict):
    name: str
    args: list[Value]
    result: Value
    error: Optional[str]

class LimitsDict(TypedDict, total=False):
    timeout_ms: Optional[int]
    max_steps: Optional[int]
    max_depth: Optional[int]
    max_heap_bytes: Optional[int]
    max_print_bytes: Optional[int]
    max_tool_calls: Optional[int]
    max_source_bytes: Optional[int]

class RenderDict(TypedDict, total=False):
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
PathLike = Union[str, os.PathLike[str]]

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

class PtcError(Exception):
    """An error of ptc. A failing program is not raised: turns and results carry these as `.error`."""

    kind: str
    """The kind as language.md spells it: "type-error", "timeout", "tool-error", ..."""
    message: str
    hint: Optional[str]
    line: Optional[int]
    """1-based line in the program, when known."""
    column: Optional[int]

class ParseError(PtcError): ...
class ValidationError(PtcError): ...
class PtcTypeError(PtcError): ...
class PtcArithmeticError(PtcError): ...
class ArityError(PtcError): ...
class UndefinedError(PtcError): ...
class ExecutionError(PtcError): ...
class ToolError(PtcError): ...
class FailError(PtcError): ...
class PtcTimeoutError(PtcError): ...
class MemoryExceededError(PtcError): ...
class LimitExceededError(PtcError): ...
class InternalError(PtcError): ...

class ConversionError(PtcError):
    """Raised for a Python value with no PTC-Lisp counterpart (or an int beyond 64 bits),
    or, with kind "limit-exceeded", for a value past the conversion bound (4 x max_heap_bytes)."""

class SessionError(PtcError):
    """Raised for bad session definitions or files, a turn after the end, or a session busy in another thread."""

@final
class Keyword:
    """A PTC-Lisp keyword (only with keep_keywords=True; keywords are str by default)."""

    @property
    def name(self) -> str:
        """The name without the colon."""
    def __new__(cls, name: str) -> "Keyword": ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __lt__(self, other: "Keyword", /) -> bool: ...
    def __le__(self, other: "Keyword", /) -> bool: ...
    def __gt__(self, other: "Keyword", /) -> bool: ...
    def __ge__(self, other: "Keyword", /) -> bool: ...

@final
class Tool:
    """A function with the name, signature and description the prompt shows; callable like the function."""

    @property
    def function(self) -> Callable[..., Any]: ...
    @property
    def name(self) -> Optional[str]: ...
    @property
    def signature(self) -> Optional[str]: ...
    @property
    def description(self) -> Optional[str]: ...
    @property
    def effect(self) -> Optional[Literal["read", "write"]]: ...
    @property
    def approval(self) -> bool: ...
    @property
    def idempotent(self) -> bool: ...
    @property
    def preview(self) -> Any: ...
    def __new__(
        cls,
        function: Callable[..., Any],
        *,
        name: Optional[str] = None,
        signature: Optional[str] = None,
        description: Optional[str] = None,
        effect: Optional[Literal["read", "write"]] = None,
        approval: bool = False,
        idempotent: bool = False,
        preview: Any = None,
    ) -> "Tool": ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...

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
    effect: Optional[Literal["read", "write"]] = None,
    approval: bool = False,
    idempotent: bool = False,
    preview: Any = None,
) -> Callable[[F], Tool]: ...

@final
class RunResult:
    """What ptc_lisp.run did."""

    @property
    def ok(self) -> bool: ...
    @property
    def value(self) -> Value:
        """The program's value; None when it failed."""
    @property
    def error(self) -> Optional[PtcError]: ...
    @property
    def returned(self) -> bool: ...
    @property
    def prints(self) -> list[str]: ...
    @property
    def tool_calls(self) -> list[ToolCall]: ...
    def unwrap(self) -> Value:
        """The value, or raise the error."""

@final
class Turn:
    """One turn of a session (immutable)."""

    @property
    def number(self) -> int: ...
    @property
    def raw_response(self) -> str: ...
    @property
    def program(self) -> Optional[str]:
        """The program extracted from the response; None when it held no code."""
    @property
    def success(self) -> bool: ...
    @property
    def returned(self) -> bool: ...
    @property
    def value(self) -> Value: ...
    @property
    def error(self) -> Optional[PtcError]: ...
    @property
    def prints(self) -> list[str]: ...
    @property
    def tool_calls(self) -> list[ToolCall]: ...
    @property
    def defined(self) -> list[str]: ...
    @property
    def feedback(self) -> Optional[str]:
        """What ptc mcp answers for the turn (tool calls, prints, Result: or Error:/Hint:/At:); set on the turn run_turn returns, None on Session.turns'."""
    @property
    def memory(self) -> dict[str, Value]:
        """user/ after the turn (unchanged by a failed turn)."""
    @property
    def status(self) -> Literal["ok", "error", "paused"]:
        """"paused" when calls await approval (pending; Session.resume)."""
    @property
    def pending(self) -> list[PendingCall]:
        """The calls a paused turn waits on."""

@final
class Preview:
    """What Session.preview found: the turn (writes answered by their preview value, not run) and the writes, in order."""

    @property
    def turn(self) -> Turn: ...
    @property
    def writes(self) -> list[PreviewedWrite]: ...

@final
class Session:
    """A mission and its turns; memory changes only on successful turns."""

    def __new__(
        cls,
        mission: str,
        *,
        data: Optional[Mapping[str, Any]] = None,
        tools: Tools = None,
        max_turns: int = 5,
        limits: Limits = None,
        compression: bool = False,
        render: Optional[RenderDict] = None,
        keep_keywords: bool = False,
        mcp: Optional[Mapping[str, Mapping[str, Any]]] = None,
        open_ended: bool = False,
        approval: Optional[Literal["writes"]] = None,
    ) -> "Session": ...
    @staticmethod
    def from_file(
        path: PathLike,
        *,
        tools: Tools = None,
        live: bool = False,
        mcp: Optional[Mapping[str, Mapping[str, Any]]] = None,
        keep_keywords: bool = False,
    ) -> "Session":
        """Load a session file and replay its turns; recorded turns answer tool calls from the file's recording (no tool runs) unless live=True. tools= attaches live tools (by name) for new turns; mcp= adds MCP servers ({name: {"command": [...]} or {"url": ...}}, replacing the file's of that name; a stdio one starts in the file's directory)."""
    def run_turn(
        self,
        raw_response: Optional[str],
        *,
        calls: Optional[Sequence[Any]] = None,
        finish_reason: Optional[str] = None,
    ) -> Turn:
        """Run one LLM response as the next turn (without the GIL). None is an empty reply (a failed turn);
        calls are the reply's tool calls under the tool protocol; finish_reason "length"/"max_tokens" is a
        cut-off failed turn. Raises SessionError once the session has ended."""
    def next_prompt(self, protocol: Optional[Literal["text", "tool"]] = None) -> list[dict[str, Any]]:
        """The messages for the next LLM call, as ptc replay prints them (OpenAI tool pairs under the tool protocol)."""
    def request(
        self,
        provider: Literal["openai", "anthropic"] = "openai",
        *,
        protocol: Optional[Literal["text", "tool"]] = None,
        cache: bool = True,
    ) -> dict[str, Any]:
        """The SDK arguments besides the model: messages (system), tools and tool_choice under the tool protocol."""
    def resume(
        self,
        *,
        approve: Union[Literal["all"], Sequence[str], None] = None,
        deny: Union[Literal["all"], Sequence[str], Mapping[str, str], None] = None,
        reason: str = "denied by the user",
    ) -> Turn:
        """Continue the paused turn: approve/deny its pending calls by id (or "all"); a denied call fails with a
        tool-error "denied: REASON". Returns the resumed turn (it may pause again)."""
    @property
    def pending(self) -> list[PendingCall]:
        """The calls the paused turn waits on ([] when none is paused)."""
    def preview(self, program: str) -> Preview:
        """Run program with every write answered by its preview value (else None) without running it; the session is unchanged."""
    @property
    def protocol(self) -> Literal["text", "tool"]: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    @staticmethod
    def _from_pickle(text: str, tools: Tools, keep_keywords: bool) -> "Session": ...
    def next_prompt_anthropic(self) -> AnthropicPrompt: ...
    @overload
    def render(self, view: Literal["compressed", "uncompressed"]) -> list[Message]: ...
    @overload
    def render(self, view: Literal["turns"]) -> str: ...
    @overload
    def render(self, view: None = None) -> list[Message]: ...
    def save(self, path: PathLike) -> None: ...
    @property
    def status(self) -> Literal["running", "returned", "failed", "exhausted"]: ...
    @property
    def result(self) -> Value:
        """The returned value, or the fail reason; None while running or exhausted."""
    @property
    def turns(self) -> list[Turn]: ...
    @property
    def memory(self) -> dict[str, Value]: ...
    @property
    def mission(self) -> str: ...
    @property
    def max_turns(self) -> int: ...
    @property
    def turns_left(self) -> int: ...

def run(
    program: str,
    *,
    data: Optional[Mapping[str, Any]] = None,
    tools: Tools = None,
    limits: Limits = None,
    keep_keywords: bool = False,
) -> RunResult:
    """Run one program; a failing program is a result with .error set, not an exception."""

def system_prompt() -> str:
    """The static SYSTEM prompt."""
