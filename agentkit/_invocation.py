"""The function-invocation layer between the model and the agent tools, as MeshWeaver wires it (FI2, FI3).

Every agent is a Microsoft.Agents.AI ChatClientAgent, whose pipeline holds Microsoft.Extensions.AI's
FunctionInvokingChatClient (FI1). MeshWeaver sets two of its properties: ``AllowConcurrentInvocation``
(true) and ``MaximumIterationsPerRequest`` (``maxToolCallsPerRound``, A6). Everything else keeps the
library's default at 10.8.3:

- Detailed errors are off: a call that throws answers ``Error: Function failed.`` (FI1).
- ``MaximumConsecutiveErrorsPerRequest`` is 3. An iteration fails when one of its calls threw. A call of
  a tool not offered (A5) or one that timed out (MP3, a TimeoutError its tool raised included) answers
  text and did not throw. An iteration without a thrown call sets the count back to 0. The fourth
  failing iteration in a row rethrows its exception (an AggregateException when several calls threw),
  and the round ends in error (FI2).
- One response's calls run concurrently, and their results come back in call order. At the limit,
  every call of the response has run before the exception is rethrown (FI3).

The library sets no timeout on a call. MeshWeaver's own bound is 30 s on each agent tool except
``delegate_to_agent``, answered as text (MP3, ``_plugins._timed``); ``delegate_to_agent`` stops waiting
for its sub-thread after 10 minutes (``_runtime.DELEGATION_WAIT_SECONDS``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ._messages import ToolResult

MAXIMUM_CONSECUTIVE_ERRORS = 3  # FunctionInvokingChatClient.MaximumConsecutiveErrorsPerRequest; MeshWeaver keeps it
ALLOW_CONCURRENT_INVOCATION = True  # ChatClientAgentFactory sets it; agentkit runs the calls in call order
# .NET's messages for what the binder throws (AIFunctionFactory's ParameterMarshaller, Throw.ArgumentException).
MISSING_ARGUMENT = "The arguments dictionary is missing a value for the required parameter '{name}'. (Parameter 'arguments')"
# System.Text.Json's message for a JSON value of another type; its tail (Path, LineNumber, BytePositionInLine)
# is not modelled.
NOT_CONVERTIBLE = "The JSON value could not be converted to {type}."
DOTNET_TYPES = {"string": "System.String", "integer": "System.Int32", "boolean": "System.Boolean"}
# JsonSerializer.Deserialize(string json, …) on a null text: ArgumentNullException.
NULL_TEXT = "Value cannot be null. (Parameter 'json')"


class LayerAnswer(str):
    """A tool answer the function layer writes itself, not the method's string: it passes every wire as it is."""


class Raised(LayerAnswer):
    """A tool answer that stands for an exception the function layer caught.

    The model reads the text itself (``Error: Function failed.``). ``message`` is the exception's message,
    which an aborted round stores.
    """

    message: str

    def __new__(cls, text: str, message: str) -> "Raised":
        answer = super().__new__(cls, text)
        answer.message = message
        return answer


class ConsecutiveErrors:
    """FunctionInvokingChatClient's count of consecutive failing iterations in one round (FI2)."""

    def __init__(self) -> None:
        self.count = 0

    def after(self, results: Sequence[ToolResult]) -> str | None:
        """Count one iteration's results. At the limit, return the message of the exception rethrown."""
        messages = [result.text.message for result in results if isinstance(result.text, Raised)]
        if not messages:
            self.count = 0
            return None
        self.count += 1
        if self.count <= MAXIMUM_CONSECUTIVE_ERRORS:
            return None
        if len(messages) == 1:
            return messages[0]
        return "One or more errors occurred." + "".join(f" ({message})" for message in messages)


def aborted_text(streamed: str, message: str) -> str:
    """What ThreadExecution stores for a round that ended in an exception: its text so far and the message."""
    return (streamed + f"\n\n*Error: {message}*").strip()
