"""The model seam: what the runtime calls for every reply.

A model is anything with a ``key`` (the model name it bills under; None means
the provider did not say) and ``respond(context) -> Reply``; an optional
``reports_usage`` False models a provider that never reports usage, so its
rounds record none. A real provider client would plug in here; none is called
in agentkit. The guide's deterministic scripted models are in ``agentkit.guide``.
"""

from __future__ import annotations

from typing import Protocol

from ._messages import Context, Reply


class Model(Protocol):
    """What the runtime calls: one context in, one reply out."""

    key: str | None

    def respond(self, context: Context) -> Reply: ...
