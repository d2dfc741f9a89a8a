"""The cost model: every call bills its whole context; the closed forms; a worked example on the report."""

from decimal import Decimal

import agentkit
from agentkit import (
    CACHE_READ, CACHE_WRITE_1_HOUR, CACHE_WRITE_5_MINUTES, EXAMPLE_PRICES, Agent, CallPattern, Mesh, Thread, ToolCall,
    item_tokens, mesh_plugin,
)
from agentkit.guide import PlannedCalls, report_tokens, run_scenario, write_phase_sizes
from claimcheck import capture
from claimcheck.agentview import AgentView

# Every configuration built below is recorded for the page's "Agent node" listing (claimcheck/agentview.py).
VIEW = AgentView(__file__)
AgentConfiguration = VIEW.configurations(agentkit.AgentConfiguration)

PRICE = EXAMPLE_PRICES["example-large"]

# --8<-- [start:bill-per-call]
mesh = Mesh(node_types={"Company"})
mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
reads = [ToolCall("Get", {"path": "Acme"}) for _ in range(3)]
model = PlannedCalls(reads, batch_size=1)
agent = Agent(AgentConfiguration("reader", "Read Acme three times.", plugins=["Mesh:Get"]),
              model, mesh, tools=mesh_plugin(mesh))
run = agent.start(Thread("Acme/_Thread/t1"), "Go.")
# Turn 1 is shown the instructions, the tool definitions and the user message; each later
# turn adds the call before it and its result. On turn 4 the model answers.
for turn in run.turns:
    print(turn.index, turn.context.total, turn.usage.input)
#> 1 545 545
#> 2 612 612
#> 3 679 679
#> 4 746 746
# --8<-- [end:bill-per-call]

# verifies: agent.every-call-bills-whole-context
assert all(t.usage.input == t.context.total > 0 for t in run.turns) and len(run.turns) == 4
step = item_tokens(reads[0]) + item_tokens(run.turns[0].results[0])
# verifies: agent.every-call-bills-whole-context
assert all(b.context.total - a.context.total == step for a, b in zip(run.turns, run.turns[1:]))


class Recorder:
    """The same model, keeping every context it is shown."""

    key = model.key

    def __init__(self):
        self.inner, self.contexts = PlannedCalls(reads, batch_size=1), []

    def respond(self, context):
        self.contexts.append(context)
        return self.inner.respond(context)


recorder = Recorder()
Agent(agent.config, recorder, mesh, tools=mesh_plugin(mesh)).start(Thread("Acme/_Thread/t2"), "Go.")
shown = recorder.contexts
# verifies: agent.each-call-resends-round
assert all(later.items[:len(earlier.items)] == earlier.items for earlier, later in zip(shown, shown[1:]))
# verifies: agent.each-call-resends-round
assert [len(c.tool_results()) for c in shown] == [0, 1, 2, 3] and all(c.instructions == shown[0].instructions
                                                                       for c in shown)

# The worked example takes its sizes from scenario 3's writing phase on the generated report:
# the prefix is instructions, tools, task, worksheet, approval and the dimension listing.
sizes = write_phase_sizes(run_scenario("worksheet"))
PREFIX, N, CALL, RESULT = sizes.prefix, sizes.calls, sizes.call, sizes.result
DOCUMENT = report_tokens()

# --8<-- [start:worked-example]
def pattern(document: int, batch_size: int | None) -> CallPattern:
    """N creates on a prefix of PREFIX tokens, each adding CALL + RESULT tokens."""
    return CallPattern(N, PREFIX, CALL, RESULT, document_tokens=document,
                       batch_size=batch_size)


sequential_with_document = pattern(DOCUMENT, batch_size=1)
batched_without_document = pattern(0, batch_size=10)
for caching in (False, True):  # dollars, without and then with caching
    print(sequential_with_document.cost(PRICE, caching),
          batched_without_document.cost(PRICE, caching))
#> 9.794796 0.26838
#> 1.21261125 0.1360905
# --8<-- [end:worked-example]
capture("agent_node_cost_model.md", VIEW.agent_nodes("bill-per-call", "worked-example"))

ROWS = [("one Create a turn, document in context", DOCUMENT, 1),
        ("one Create a turn, document gone", 0, 1),
        ("10 Creates a turn, document in context", DOCUMENT, 10),
        ("10 Creates a turn, document gone", 0, 10),
        ("all Creates in one turn, document gone", 0, None)]


def worked_example() -> str:
    lines = [f"N = {N} creates, prefix P = {PREFIX:,} tokens, document D = {DOCUMENT:,} tokens, "
             f"d = {CALL} + {RESULT} tokens a call (the averages of scenario 3), "
             f"${PRICE.input_per_million}/${PRICE.output_per_million} per million input/output tokens.", "",
             "| write phase | model calls | input tokens | cost | cost with caching |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for label, document, batch in ROWS:
        p = pattern(document, batch)
        lines.append(f"| {label} | {p.model_calls} | {p.usage().total_input:,} | ${p.cost(PRICE):.2f} | "
                     f"${p.cost(PRICE, caching=True):.2f} |")
    return "\n".join(lines) + "\n"


P, d = PREFIX + DOCUMENT, CALL + RESULT
# verifies: agent.closed-forms, agent.closed-forms-exact
assert sequential_with_document.usage().total_input == (N + 1) * P + d * N * (N + 1) // 2
# verifies: agent.closed-forms, agent.closed-forms-exact
assert pattern(DOCUMENT, None).usage().total_input == 2 * P + N * d
# verifies: agent.worked-example-tenth
assert batched_without_document.cost(PRICE) * 10 < sequential_with_document.cost(PRICE)
# verifies: agent.cache-price-rules
assert (CACHE_WRITE_5_MINUTES, CACHE_WRITE_1_HOUR, CACHE_READ) == (Decimal("1.25"), 2, Decimal("0.1"))
# verifies: agent.cache-price-rules
assert (PRICE.cache_write_multiplier, PRICE.cache_read_multiplier, PRICE.min_cacheable_tokens) == (
    Decimal("1.25"), Decimal("0.1"), 1024)
# verifies: agent.caching-narrows-not-closes
assert sequential_with_document.cost(PRICE, caching=True) < sequential_with_document.cost(PRICE) / 8
# verifies: agent.caching-narrows-not-closes
assert sequential_with_document.cost(PRICE, caching=True) > 8 * batched_without_document.cost(PRICE, caching=True)
# The table's rows are patterns over the constants above, checked by the asserts just made.
capture("agent_cost_worked_example.md", worked_example())
