"""What child and connected agents share: their declaration, their tools and the tool context.

A sub-agent here is a declaration (name, mode, description, instructions, tools, contract inputs and
outputs). Running it with a model is the runtime's job (``harness``), so this package stays free of
models and I/O.
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import inspect
from collections.abc import Awaitable, Callable, Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, get_type_hints, overload

from pydantic import BaseModel, ConfigDict, create_model

from instructions.contract import SCOPED_REQUEST, default_inputs, default_outputs
from subagents._checks import timeout_problem
from subagents._errors import ConfigError
from subagents.contract import HistoryEntry, Kind, Mode, ModeName

__all__ = ["IOSpec", "Reply", "Subagent", "Tool", "ToolContext", "UserAnswer"]


class IOSpec(BaseModel):
    """One declared input or output of a sub-agent."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    """The wire name (``scopedRequest``, ``answered``, ...)."""
    description: str = ""
    """What it means; the parent and the sub-agent's model read this."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Reply:
    """What a tool may return instead of a plain string.

    Conversational tools use ``done=False`` to keep the floor (ask the user something) and
    ``open_questions`` to hand back parts of the request they cannot handle.
    """

    text: str
    """What to tell the user (direct modes) or report as findings (silent mode)."""
    done: bool = True
    """False while a conversational agent still needs the user's input."""
    open_questions: tuple[str, ...] = ()
    """Parts of the request this tool could not handle."""


@dataclass(frozen=True, slots=True, kw_only=True)
class UserAnswer:
    """The user's answer to a question a sub-agent asked about one of its requests.

    When an agent lacks a value it needs, it asks the user; the user's next message that only
    gives the value ("£20", "next Monday") is planned as that request again, for the same agent,
    with the value carried here, beside the request, never inside its text: the agent's
    ``scopedRequest`` stays the user's request, and nothing the user types becomes an answer
    (docs/contract.md, "The user's answer to an agent's question").
    """

    request: str
    """The request the value completes, as the agent got it (one of the call's requests)."""
    question: str
    """What the agent asked ("What amount do you want to top up?")."""
    value: str
    """What the user gave, without the words around it ("£20" of "yes, £20 please")."""


@dataclass(slots=True, kw_only=True)
class ToolContext:
    """Injected into a tool that declares a parameter annotated ``ToolContext``.

    It gives a tool the scoped request, the parent's history when the agent receives it, and a state
    dict that persists across turns of one conversation (for multi-turn dialogues).
    """

    agent: str
    """The sub-agent's name."""
    scoped_request: str
    """The request the agent is working on."""
    history: tuple[HistoryEntry, ...] | None
    """The parent's conversation; None when the agent does not receive history."""
    state: MutableMapping[str, Any] = field(default_factory=dict)
    """This agent's memory in this conversation; must stay JSON-serialisable."""
    requests: tuple[str, ...] = ()
    """Each request of a call that carries two or more (``scoped_request`` numbers them); a
    handler then answers each in its ``answeredRequests`` output (docs/contract.md)."""
    answers: tuple[UserAnswer, ...] = ()
    """The user's answers to the questions this agent asked about the call's requests last turn
    (each naming its request), in the order given; empty when the call carries none."""


ToolFunction = Callable[..., Any] | Callable[..., Awaitable[Any]]


@dataclass(frozen=True, slots=True, kw_only=True)
class Tool:
    """A Python function a sub-agent's model may call."""

    name: str
    """The name the model sees."""
    description: str
    """What it does; the model (and the offline rules model) read this."""
    function: ToolFunction
    """The function; sync or async. Returns a string, a ``Reply`` or JSON-serialisable data."""
    parameters: Mapping[str, Any]
    """JSON schema of the arguments the model provides (the context parameter is not among them)."""
    context_param: str | None = None
    """The name of the parameter that receives the ``ToolContext``, if any."""
    keywords: tuple[str, ...] = ()
    """Extra routing words for the offline rules model."""

    @classmethod
    def from_function(
        cls,
        function: ToolFunction,
        *,
        name: str | None = None,
        description: str | None = None,
        keywords: Iterable[str] = (),
    ) -> Tool:
        """Build a tool from a function, its signature and its docstring."""
        tool_name = name or function.__name__
        doc = inspect.getdoc(function) or ""
        desc = description or doc.split("\n\n")[0].strip() or tool_name.replace("_", " ")
        try:
            hints = get_type_hints(function)
        except Exception as exc:
            raise ConfigError(f"cannot read the type hints of tool {tool_name!r}: {exc}") from exc
        context_param: str | None = None
        fields: dict[str, Any] = {}
        for param in inspect.signature(function).parameters.values():
            annotation = hints.get(param.name, str)
            if annotation is ToolContext:
                context_param = param.name
                continue
            if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                continue
            default = ... if param.default is param.empty else param.default
            fields[param.name] = (annotation, default)
        args_model: type[BaseModel] = create_model(f"{tool_name}_args", **fields)
        schema: dict[str, Any] = dict(args_model.model_json_schema())
        schema.pop("title", None)
        return cls(
            name=tool_name,
            description=desc,
            function=function,
            parameters=schema,
            context_param=context_param,
            keywords=tuple(keywords),
        )

    async def call(self, arguments: Mapping[str, Any], context: ToolContext) -> Any:
        """Call the function with the model's arguments and, if it asks for it, the context."""
        kwargs = dict(arguments)
        if self.context_param:
            kwargs[self.context_param] = context
        if inspect.iscoroutinefunction(self.function):
            return await self.function(**kwargs)
        # A plain function may block (I/O, a slow library): keep it off the event loop so other
        # sub-agents keep running and the timeout can fire.
        result = await asyncio.to_thread(functools.partial(self.function, **kwargs))
        if inspect.isawaitable(result):
            result = await result
        return result


def _as_tools(tools: Iterable[Tool | ToolFunction | str]) -> tuple[Tool, ...]:
    out: list[Tool] = []
    for item in tools:
        if isinstance(item, Tool):
            out.append(item)
        elif isinstance(item, str):
            out.append(Tool.from_function(_import_reference(item)))
        elif callable(item):
            out.append(Tool.from_function(item))
        else:
            raise ConfigError(
                f"a tool must be a function, a Tool or 'package.module:function', "
                f"not {type(item).__name__}",
                field="tools",
            )
    names = [t.name for t in out]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ConfigError(f"tool names must be unique; repeated: {', '.join(dupes)}")
    return tuple(out)


def _import_reference(reference: str) -> ToolFunction:
    """A ``package.module:function`` string given in Python, imported as the YAML loader does."""
    module_ref, _, attr = reference.rpartition(":")
    if not module_ref or not attr or module_ref.endswith(".py") or "/" in module_ref:
        raise ConfigError(
            f"tool {reference!r}: in Python, pass the function itself (from tools import f) or "
            "'package.module:function'; 'file.py:function' is for YAML configs, where it is "
            "relative to the config file",
            field="tools",
        )
    return import_function(module_ref, attr)


def import_function(module_ref: str, attr: str) -> ToolFunction:
    """``attr`` of the module ``module_ref`` (``package.module``), which must be callable.

    Raises:
        ConfigError: when the module cannot be imported or has no such function (``field="tools"``).
    """
    try:
        module = importlib.import_module(module_ref)
    except ImportError as exc:
        raise ConfigError(
            f"cannot import tool module {module_ref!r}: {exc}", field="tools"
        ) from exc
    return function_in(module, module_ref, attr)


def function_in(module: object, module_ref: str, attr: str) -> ToolFunction:
    """``attr`` of an imported ``module`` (named ``module_ref`` in errors), which must be callable."""
    function = getattr(module, attr, None)
    if not callable(function):
        raise ConfigError(f"{module_ref!r} has no function {attr!r}", field="tools")
    return function  # type: ignore[no-any-return]


def _default_inputs() -> tuple[IOSpec, ...]:
    return tuple(IOSpec(name=n, description=d) for n, d in default_inputs())


def _default_outputs(mode: Mode) -> tuple[IOSpec, ...]:
    """The mode's required outputs and ``openQuestions``: what its answer schema asks for."""
    return tuple(IOSpec(name=n, description=d) for n, d in default_outputs(mode))


class _ModeField:
    """A sub-agent's ``mode``: given as a ``Mode`` or its name, always read back as a ``Mode``.

    A descriptor-typed dataclass field, so type checkers accept ``mode="direct"`` in the
    constructor and still see ``agent.mode`` as a ``Mode``.
    """

    def __set_name__(self, owner: type, name: str) -> None:
        self._attr = f"_{name}_value"

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> Mode: ...
    @overload
    def __get__(self, obj: object, owner: type | None = None) -> Mode: ...
    def __get__(self, obj: object | None, owner: type | None = None) -> Mode:
        if obj is None:
            return Mode.DIRECT  # the dataclass reads the field's default here
        return obj.__dict__[self._attr]  # type: ignore[no-any-return]

    def __set__(self, obj: object, value: Mode | ModeName) -> None:
        try:
            mode = Mode(value)
        except ValueError:
            name = getattr(obj, "name", None)
            whose = f" of sub-agent {name!r}" if isinstance(name, str) else ""
            valid = ", ".join(repr(m.value) for m in Mode)
            raise ConfigError(
                f"unknown mode {value!r}{whose}; use one of {valid} (or a Mode)", field="mode"
            ) from None
        obj.__dict__[self._attr] = mode


@dataclass(frozen=True, kw_only=True)
class Subagent:
    """A sub-agent declaration. Use ``ChildAgent`` or ``ConnectedAgent``.

    ``inputs`` and ``outputs`` default to the contract's standard set for the mode. Declaring fewer
    is allowed (the linter reports it), but the runtime still enforces the mode's required outputs.
    """

    kind: ClassVar[Kind]

    name: str
    """Unique among the parent's sub-agents; used as the sender of its messages."""
    description: str
    """The routing description the parent reads to pick this agent."""
    mode: _ModeField = _ModeField()
    """How it communicates: a ``Mode`` or its name, ``silent``, ``direct`` or ``conversational``
    (read back as a ``Mode``)."""
    instructions: str = ""
    """Its own instructions; the generated contract instructions are added before them."""
    tools: Sequence[Tool | ToolFunction | str] = ()
    """Python functions it may call, or ``package.module:function`` names (converted to ``Tool``
    on construction)."""
    examples: Sequence[str] = ()
    """Example user requests it handles; the offline rules model routes by them."""
    inputs: Sequence[IOSpec] | None = None
    """Declared inputs; None means the contract's standard inputs."""
    outputs: Sequence[IOSpec] | None = None
    """Declared outputs; None means the contract's standard outputs for the mode."""
    model: Any = None
    """Its own model (a ``harness`` Model or a name like ``openai:gpt-4o-mini``); None: the parent's."""
    timeout: float = 30.0
    """Seconds one call may take before it becomes a ``timed_out`` result."""
    tool_timeout: float | None = None
    """Seconds one tool call may take; a slower one fails the call (``ToolTimeoutError``). None:
    only ``timeout`` applies."""
    generated_instructions: bool = True
    """Prepend the generated contract instructions (scope anchor, silence, outputs) to its own."""
    handler: Callable[[ToolContext], Awaitable[Mapping[str, Any]] | Mapping[str, Any]] | None = None
    """A custom implementation that replaces the model loop (a team, a workflow).

    It receives the ``ToolContext`` (positionally) and returns the raw contract outputs keyed by
    wire name. It may be async, or a plain function, which runs on a worker thread as a sync tool
    does (it may block; ``timeout`` still applies); a coroutine a plain function returns is awaited
    on the event loop. A plain function that makes a future on the loop
    (``lambda ctx: asyncio.ensure_future(...)``) is not supported: use ``async def``. It has
    no way to message the user; a direct handler reports what to say in ``interactionSummary`` and
    the runtime sends it as the agent's message.
    """

    def __post_init__(self) -> None:
        if not self.name or not self.name.replace("_", "").replace("-", "").isalnum():
            raise ConfigError("a sub-agent name must be letters, digits, '-' or '_'", field="name")
        if self.tool_timeout is not None:
            problem = timeout_problem(self.tool_timeout, name="tool_timeout")
            if problem is not None:
                raise ConfigError(problem, field="tool_timeout")
        object.__setattr__(self, "tools", _as_tools(self.tools))
        object.__setattr__(self, "examples", tuple(self.examples))
        inputs = _default_inputs() if self.inputs is None else tuple(self.inputs)
        outputs = _default_outputs(self.mode) if self.outputs is None else tuple(self.outputs)
        object.__setattr__(self, "inputs", inputs)
        object.__setattr__(self, "outputs", outputs)
        problem = timeout_problem(self.timeout)
        if problem is not None:
            raise ConfigError(problem, field="timeout")

    @property
    def receives_history(self) -> bool:
        """Whether this agent is given the parent's conversation history."""
        raise NotImplementedError

    @property
    def tool_specs(self) -> tuple[Tool, ...]:
        """The tools, as ``Tool`` objects (functions are converted on construction)."""
        return tuple(t for t in self.tools if isinstance(t, Tool))

    @property
    def scoped(self) -> bool:
        """Whether it declares the ``scopedRequest`` input (so gets only its part of a message)."""
        return any(spec.name == SCOPED_REQUEST for spec in self.inputs or ())

    @property
    def output_names(self) -> tuple[str, ...]:
        """The declared output names."""
        return tuple(spec.name for spec in self.outputs or ())

    @property
    def input_names(self) -> tuple[str, ...]:
        """The declared input names."""
        return tuple(spec.name for spec in self.inputs or ())
