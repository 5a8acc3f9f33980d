"""A real local model for ``make eval-llm`` and ``make interop``: Qwen2.5-Coder-1.5B-Instruct served by
llama-cpp-python's OpenAI-compatible server (see docs/eval-llm.md)."""
