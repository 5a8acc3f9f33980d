"""What one helpdesk turn sends to an OpenAI model, and what the SDK adds per model call.

Run it from the repository root::

    .venv/bin/python tests/bench/bench_openai_overhead.py [--calls 300] [--warmup 30] [--json]

Two parts, both against the fake OpenAI server of ``tests/models/fake_openai.py`` on 127.0.0.1:

- *per turn*: one multi-intent helpdesk turn through ``OpenAIModel``; for each model call, the
  caller, its message count, the characters of its system prompt and of all its messages, its
  tools, and the fake server's token estimate (characters / 4).
- *per call*: the same sub-agent request sent N times by ``OpenAIModel.request`` and by raw POSTs
  of the identical JSON body with ``httpx2`` (the SDK's own transport) and ``aiohttp``; the
  medians, and the overhead of ``OpenAIModel`` (SDK plus our mapping, validation and retries
  wrapper) over the raw ``httpx2`` POST.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402
import httpx2  # noqa: E402

import harness  # noqa: E402
from harness.models._wire import chat_messages, response_format, tool_params  # noqa: E402
from harness.models.openai import OpenAIModel  # noqa: E402
from tests.models._requests import OUTPUTS, act_request  # noqa: E402
from tests.models.fake_openai import FakeOpenAI, caller_of, message  # noqa: E402
from tests.models.helpdesk_brain import helpdesk_brain  # noqa: E402

QUESTION = (
    "How many vacation days do I have remaining, and when will I be getting my next paycheck?"
)


async def turn_sizes() -> dict[str, Any]:
    """Run one helpdesk turn and measure every request it sent."""
    async with FakeOpenAI(helpdesk_brain) as server:
        model = OpenAIModel("gpt-4o-mini", base_url=server.url)
        bot = harness.load_bot(ROOT / "samples" / "helpdesk" / "helpdesk.yaml", model=model)
        turn = await bot.conversation().send(QUESTION)
        await bot.aclose()
        calls = []
        for body in server.requests:
            messages = body["messages"]
            system = messages[0]["content"] if messages[0]["role"] == "system" else ""
            chars = sum(len(json.dumps(m, ensure_ascii=False)) for m in messages)
            calls.append(
                {
                    "caller": caller_of(body),
                    "messages": len(messages),
                    "system_chars": len(system),
                    "message_chars": chars,
                    "tools": len(body.get("tools", [])),
                    "request_bytes": len(json.dumps(body).encode()),
                }
            )
    return {
        "calls": calls,
        "model_calls": len(calls),
        "messages": sum(c["messages"] for c in calls),
        "system_chars": sum(c["system_chars"] for c in calls),
        "request_bytes": sum(c["request_bytes"] for c in calls),
        "input_tokens": turn.usage.input_tokens,
        "output_tokens": turn.usage.output_tokens,
        "cost_usd": turn.usage.cost_usd,
    }


async def _time(n: int, warmup: int, call: Callable[[], Awaitable[Any]]) -> list[float]:
    for _ in range(warmup):
        await call()
    times = []
    for _ in range(n):
        started = time.perf_counter()
        await call()
        times.append(time.perf_counter() - started)
    return times


async def call_overhead(n: int, warmup: int) -> dict[str, float]:
    """Median milliseconds per call: OpenAIModel vs raw POSTs of the same body."""
    async with FakeOpenAI(lambda body: message(OUTPUTS)) as server:
        request = act_request()
        body = {
            "model": "gpt-4o-mini",
            "messages": chat_messages(request.system, request.messages),
            "tools": tool_params(request.tools),
            "response_format": response_format(request),
        }
        url = f"{server.url}/chat/completions"
        headers = {"Authorization": "Bearer test"}
        model = OpenAIModel("gpt-4o-mini", base_url=server.url, api_key="test")
        sdk = await _time(n, warmup, lambda: model.request(request))
        await model.aclose()

        async with httpx2.AsyncClient() as client:

            async def raw_httpx2() -> Any:
                response = await client.post(url, json=body, headers=headers)
                return json.loads(response.json()["choices"][0]["message"]["content"])

            plain = await _time(n, warmup, raw_httpx2)

        async with aiohttp.ClientSession() as session:

            async def raw_aiohttp() -> Any:
                async with session.post(url, json=body, headers=headers) as response:
                    data = await response.json()
                return json.loads(data["choices"][0]["message"]["content"])

            lean = await _time(n, warmup, raw_aiohttp)
    medians = {
        "openai_model_ms": statistics.median(sdk) * 1000,
        "raw_httpx2_ms": statistics.median(plain) * 1000,
        "raw_aiohttp_ms": statistics.median(lean) * 1000,
    }
    medians["overhead_vs_httpx2_ms"] = medians["openai_model_ms"] - medians["raw_httpx2_ms"]
    medians["overhead_vs_aiohttp_ms"] = medians["openai_model_ms"] - medians["raw_aiohttp_ms"]
    return medians


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    sizes = asyncio.run(turn_sizes())
    medians = asyncio.run(call_overhead(args.calls, args.warmup))
    if args.json:
        print(json.dumps({"turn": sizes, "per_call": medians, "calls": args.calls}, indent=2))
        return
    print(f"one helpdesk turn: {QUESTION!r}")
    print(f"{'caller':<18}{'messages':>9}{'system chars':>14}{'message chars':>15}{'tools':>7}")
    for call in sizes["calls"]:
        print(
            f"{call['caller']:<18}{call['messages']:>9}{call['system_chars']:>14}"
            f"{call['message_chars']:>15}{call['tools']:>7}"
        )
    print(
        f"total: {sizes['model_calls']} model calls, {sizes['messages']} messages, "
        f"{sizes['system_chars']} system-prompt chars, {sizes['request_bytes']} request bytes, "
        f"~{sizes['input_tokens']} input / ~{sizes['output_tokens']} output tokens (chars/4)"
    )
    print(f"\nper model call, median of {args.calls} (fake server on 127.0.0.1):")
    for name, value in medians.items():
        print(f"  {name:<24}{value:8.3f}")


if __name__ == "__main__":
    main()
