"""Prices, token usage, and the closed-form cost of N tool calls.

Prices are configuration: ``ModelPrice`` per model key, dollars per million
tokens, with prompt-caching multipliers (one provider's figures: a cache write
costs 1.25x base input with a 5-minute lifetime, 2x for 1 hour; a cache read
0.1x) and the minimum prefix a provider caches at all.

The closed forms. Every model call bills its whole context as input. Take a
stable prefix of P tokens (instructions, tool definitions, history, and a
document if one is in context), and N tool calls that each add d tokens (the
call item plus its result). Issued in responses of b calls, the round makes
k = ceil(N / b) calls that carry tool calls and one final call that answers;
call j (0-based) is shown P + d*j*b tokens, and the final one P + d*N. Summed:

    input(N, b) = (k + 1)*P + d*(b*k*(k - 1)/2 + N)

which gives the two cases of the guide: sequential (b = 1)
``(N + 1)*P + d*N*(N + 1)/2`` and batched (b = N) ``2*P + N*d``.

Caching, as modelled: each call marks its whole prompt for caching, so the next
call (same tool list) reads the previous prompt from the cache and writes only
what was added. A prompt shorter than the model's minimum cacheable prefix is
billed as plain input and caches nothing. Changing the tool list (for example
the call after the cap, which the framework makes without tools) loses the
cache; the closed forms assume a fixed tool list, and the runtime bills the
loss where it happens. Cache lifetimes are assumed not to expire within a
round (there is no wall clock here).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from typing import Mapping

PER_MILLION = Decimal(1_000_000)
CACHE_WRITE_5_MINUTES = Decimal("1.25")
CACHE_WRITE_1_HOUR = Decimal("2")
CACHE_READ = Decimal("0.1")


def _decimal(value: object, what: str) -> Decimal:
    try:
        number = Decimal(str(value))
    except ArithmeticError:
        raise ValueError(f"{what} must be a number, got {value!r}") from None
    if not number.is_finite() or number < 0:
        raise ValueError(f"{what} must be a finite number >= 0, got {value!r}")
    return number


def require_count(value: object, what: str, minimum: int = 0) -> int:
    """``value`` when it is an int (not a bool) >= ``minimum``; otherwise ValueError naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{what} must be an int >= {minimum}, got {value!r}")
    return value


@dataclass(frozen=True)
class ModelPrice:
    """What one model charges, in dollars per million tokens, and how it caches."""

    model: str
    input_per_million: Decimal
    output_per_million: Decimal
    cache_write_multiplier: Decimal = CACHE_WRITE_5_MINUTES
    cache_read_multiplier: Decimal = CACHE_READ
    min_cacheable_tokens: int = 1024

    def __post_init__(self) -> None:
        for name in ("input_per_million", "output_per_million",
                     "cache_write_multiplier", "cache_read_multiplier"):
            object.__setattr__(self, name, _decimal(getattr(self, name), f"{self.model}: {name}"))
        require_count(self.min_cacheable_tokens, f"{self.model}: min_cacheable_tokens")


# Example prices: configuration, not a quote; change them or pass your own table.
EXAMPLE_PRICES: Mapping[str, ModelPrice] = {
    "example-large": ModelPrice("example-large", "3", "15", min_cacheable_tokens=1024),
    "example-small": ModelPrice("example-small", "0.8", "4", min_cacheable_tokens=2048),
}


@dataclass(frozen=True)
class TokenUsage:
    """Tokens billed: plain input, output, input read from the cache, input written to it."""

    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0

    def __add__(self, other: "TokenUsage") -> "TokenUsage":
        return TokenUsage(self.input + other.input, self.output + other.output,
                          self.cache_read + other.cache_read, self.cache_write + other.cache_write)

    @property
    def total_input(self) -> int:
        """Every input token, however it was priced."""
        return self.input + self.cache_read + self.cache_write

    def as_content(self) -> dict[str, int]:
        """The framework's ``TokenUsage`` fields: ``inputTokens`` counts every input token, cache ones included."""
        return {"inputTokens": self.total_input, "outputTokens": self.output,
                "cacheReadTokens": self.cache_read, "cacheWriteTokens": self.cache_write}

    @classmethod
    def from_content(cls, content: Mapping[str, object]) -> "TokenUsage":
        """Read what :meth:`as_content` wrote (cache reads and writes are part of ``inputTokens``)."""
        read, write = int(content.get("cacheReadTokens", 0)), int(content.get("cacheWriteTokens", 0))
        return cls(int(content.get("inputTokens", 0)) - read - write, int(content.get("outputTokens", 0)), read, write)


def cost_of(usage: TokenUsage, price: ModelPrice) -> Decimal:
    """Dollars for ``usage`` at ``price``."""
    base = price.input_per_million
    return (usage.input * base
            + usage.cache_write * base * price.cache_write_multiplier
            + usage.cache_read * base * price.cache_read_multiplier
            + usage.output * price.output_per_million) / PER_MILLION


def responses_needed(calls: int, batch_size: int | None) -> int:
    """k: how many responses carry the N calls, ``batch_size`` at a time (None: all at once)."""
    require_count(calls, "calls")
    if batch_size is None:
        return 1 if calls else 0
    return math.ceil(calls / require_count(batch_size, "batch_size", 1))


def input_tokens(calls: int, stable: int, per_call: int, batch_size: int | None = None) -> int:
    """Input tokens of a round of N calls in responses of ``batch_size``: (k+1)P + d(b k(k-1)/2 + N)."""
    require_count(stable, "stable")
    require_count(per_call, "per_call")
    k = responses_needed(calls, batch_size)
    b = calls if batch_size is None else batch_size
    return (k + 1) * stable + per_call * (b * k * (k - 1) // 2 + calls)


@dataclass(frozen=True)
class CallPattern:
    """N tool calls of one shape, issued ``batch_size`` per response (None: all in one)."""

    calls: int
    stable_tokens: int        # instructions + tool definitions + history
    call_tokens: int          # one tool-call item (output of the response that makes it)
    result_tokens: int        # its result item
    answer_tokens: int = 0    # the final text answer
    document_tokens: int = 0  # a document in context rides in the prefix of every call
    batch_size: int | None = 1

    def __post_init__(self) -> None:
        for name in ("calls", "stable_tokens", "call_tokens", "result_tokens",
                     "answer_tokens", "document_tokens"):
            require_count(getattr(self, name), name)
        responses_needed(self.calls, self.batch_size)  # validates batch_size

    @property
    def prefix_tokens(self) -> int:
        """P: what every call re-sends."""
        return self.stable_tokens + self.document_tokens

    @property
    def per_call_tokens(self) -> int:
        """d: what each call adds to the context."""
        return self.call_tokens + self.result_tokens

    @property
    def calls_per_response(self) -> int:
        """b: the calls one response carries (all N when ``batch_size`` is None)."""
        return self.calls if self.batch_size is None else self.batch_size

    @property
    def model_calls(self) -> int:
        return responses_needed(self.calls, self.batch_size) + 1

    def _context(self, j: int) -> int:
        # Input of model call j: the prefix plus every call issued before it.
        return self.prefix_tokens + self.per_call_tokens * min(j * self.calls_per_response, self.calls)

    def _sum_contexts(self, first: int, stop: int) -> int:
        # Sum of _context(j) for first <= j < stop, all j < k (so min() is j*b), in closed form.
        if stop <= first:
            return 0
        index_sum = (stop * (stop - 1) - first * (first - 1)) // 2
        return (stop - first) * self.prefix_tokens + self.per_call_tokens * self.calls_per_response * index_sum

    def _first_cached_call(self, min_cacheable: int) -> int:
        # The first call whose prompt is long enough to cache (model_calls if none is).
        k = self.model_calls - 1
        if self.prefix_tokens >= min_cacheable:
            return 0
        step = self.per_call_tokens * self.calls_per_response
        if step and k:
            j = math.ceil((min_cacheable - self.prefix_tokens) / step)
            if j < k:
                return j
        return k if self._context(k) >= min_cacheable else k + 1

    def usage(self, price: ModelPrice | None = None) -> TokenUsage:
        """Tokens billed, in closed form; with ``price`` the model caches by its rules."""
        k = self.model_calls - 1
        output = self.calls * self.call_tokens + self.answer_tokens
        total = input_tokens(self.calls, self.prefix_tokens, self.per_call_tokens, self.batch_size)
        if price is None:
            return TokenUsage(input=total, output=output)
        first = self._first_cached_call(price.min_cacheable_tokens)
        if first > k:
            return TokenUsage(input=total, output=output)
        plain = self._sum_contexts(0, first)
        # From the first cached call on, each call reads the previous prompt and writes the rest,
        # so all writes together are the last prompt, and the reads are the prompts before it.
        read = self._sum_contexts(first, k)
        return TokenUsage(input=plain, output=output, cache_read=read, cache_write=self._context(k))

    def cost(self, price: ModelPrice, caching: bool = False) -> Decimal:
        """Dollars for this pattern at ``price``, with or without prompt caching."""
        return cost_of(self.usage(price if caching else None), price)
