"""Tests for agentkit/_cost.py: the closed forms against call-by-call brute force, and the refusals of bad prices
and counts. The prices and the caching figures the page states are checked by snippets/agent_design_01_cost_model.py."""

from __future__ import annotations

import itertools
from decimal import Decimal

import pytest

from guidetools import stated
from agentkit._cost import (
    CACHE_READ, CACHE_WRITE_1_HOUR, CACHE_WRITE_5_MINUTES, EXAMPLE_PRICES, CallPattern, ModelPrice, TokenUsage,
    input_tokens, responses_needed,
)


def _contexts(pattern: CallPattern) -> list[int]:
    # Brute force: the input of each model call, built call by call.
    b = pattern.calls if pattern.batch_size is None else pattern.batch_size
    shown, issued, contexts = pattern.prefix_tokens, 0, []
    while True:
        contexts.append(shown)
        if issued == pattern.calls:
            return contexts
        step = min(b, pattern.calls - issued)
        issued += step
        shown += step * pattern.per_call_tokens


def _brute_usage(pattern: CallPattern, price: ModelPrice | None) -> TokenUsage:
    # Brute force of the caching rule: read the previous cached prompt, write the rest.
    usage, cached = TokenUsage(output=pattern.calls * pattern.call_tokens + pattern.answer_tokens), 0
    for shown in _contexts(pattern):
        if price is None or shown < price.min_cacheable_tokens:
            usage += TokenUsage(input=shown)
        else:
            usage += TokenUsage(cache_read=cached, cache_write=shown - cached)
            cached = shown
    return usage


def test_closed_forms_equal_the_call_by_call_sum():
    """Sequential is (N+1)S + dN(N+1)/2, batched 2S + Nd (for every N, S, d tried); batches of b lie between."""
    for n, s, d in itertools.product(range(0, 25), (0, 1, 500, 40_000), (0, 7, 130)):
        assert input_tokens(n, s, d, 1) == (n + 1) * s + d * n * (n + 1) // 2
        assert input_tokens(n, s, d, None) == (2 * s + n * d if n else s)
    for n, b in itertools.product(range(0, 30), (1, 2, 3, 7, 10, 50, None)):
        pattern = CallPattern(n, 300, 20, 80, batch_size=b)
        assert input_tokens(n, 300, 100, b) == sum(_contexts(pattern))
        assert pattern.model_calls == len(_contexts(pattern)) == responses_needed(n, b) + 1
    assert input_tokens(12, 300, 100, 12) == input_tokens(12, 300, 100, None)


def test_cached_closed_form_equals_call_by_call_caching():
    """With caching, the closed form splits input exactly as the call-by-call rule does, threshold included."""
    price = ModelPrice("m", 3, 15, min_cacheable_tokens=1024)
    for n, prefix, d, b, doc in itertools.product(
            (0, 1, 5, 20, 60), (0, 200, 1023, 1024, 5000), (0, 9, 64), (1, 4, None), (0, 30_000)):
        pattern = CallPattern(n, prefix, d // 3, d - d // 3, answer_tokens=11, document_tokens=doc, batch_size=b)
        assert pattern.usage(price) == _brute_usage(pattern, price), (n, prefix, d, b, doc)
        assert pattern.usage() == _brute_usage(pattern, None)
        assert pattern.usage(price).total_input == pattern.usage().total_input


PRICE = {"model": "m", "input_per_million": 3, "output_per_million": 15}
COUNTS = {"calls": 3, "stable_tokens": 100, "call_tokens": 10, "result_tokens": 10}


@pytest.mark.parametrize("make, base, field, value", [
    (ModelPrice, PRICE, "input_per_million", "-1"), (ModelPrice, PRICE, "output_per_million", "abc"),
    (ModelPrice, PRICE, "cache_read_multiplier", "nan"), (ModelPrice, PRICE, "min_cacheable_tokens", -5),
    (CallPattern, COUNTS, "calls", -1), (CallPattern, COUNTS, "stable_tokens", 1.5),
    (CallPattern, COUNTS, "batch_size", 0), (CallPattern, COUNTS, "document_tokens", True),
])
def test_bad_prices_and_counts_are_refused_naming_the_field(make, base, field, value):
    """A negative, non-numeric or non-finite price, or a fractional, negative or boolean count, names the field."""
    with pytest.raises(ValueError, match=field):
        make(**{**base, field: value})


def test_the_page_states_the_closed_forms_of_the_code():
    """(N + 1) model calls and (N + 1)·P + d·N(N + 1)/2 sequential; two calls and 2·P + N·d batched."""
    n = 7
    sequential = CallPattern(n, 100, 1, 0, batch_size=1)
    batched = CallPattern(n, 100, 1, 0, batch_size=None)
    prefix_per_call = input_tokens(n, 1, 0, batch_size=1) - n  # (N + x)·P
    triangle = 2 * input_tokens(n, 0, 1, batch_size=1) // n - n  # d·N(N + x)/2
    # verifies: agent.closed-forms
    assert stated.numbers("agent.closed-forms") == [
        sequential.model_calls - n, prefix_per_call, triangle, batched.model_calls, input_tokens(n, 1, 0, None)]
    price = EXAMPLE_PRICES["example-large"]
    # verifies: agent.cache-price-rules
    assert [Decimal(str(n)) for n in stated.numbers("agent.cache-price-rules")] == [
        CACHE_WRITE_5_MINUTES, CACHE_WRITE_1_HOUR, CACHE_READ, price.min_cacheable_tokens]
