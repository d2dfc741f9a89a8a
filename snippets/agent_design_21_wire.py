"""What the model reads, per provider wire: one Get answer as each wire delivers it, and what the usage records."""

from decimal import Decimal

from agentkit import Mesh, Thread, ToolCall, mesh_plugin, tools_by_name
from agentkit._config import AgentConfiguration
from agentkit._cost import TokenUsage
from agentkit._plugins import Tool
from agentkit._runtime import Agent
from agentkit._tokens import item_tokens
from agentkit._wire import CLAUDE, DEFAULT_WIRE, OPENAI, WIRES, displayed_cost, model_reads, recorded, returned_text
from agentkit.guide import PlannedCalls, REPORT, workspace
from agentkit.guide._procedures import COLLECTION
from agentkit.guide._scenarios import run_scenario
from agentkit._messages import ToolResult
from claimcheck import capture

# --8<-- [start:get-per-wire]
mesh = workspace()  # the report uploaded to Meridian/content
get = tools_by_name(mesh_plugin(mesh, context="Meridian"))["Get"]
answer = get.call({"path": f"{COLLECTION}/{REPORT.file_name}"})  # what the Get method returns
for wire in WIRES:  # Agent(..., wire="claude") is the default
    read = model_reads(answer, wire)  # what the model reads for it on that wire
    start = read.index("otherwise")
    print(f"{wire}: {read[:read.index('Meridian') + 8]} … {read[start:read.index('Key', start) + 3]} … "
          f"{len(read):,} characters")
#> claude: "Meridian … otherwise\nKey … 143,611 characters
#> openai: "\"Meridian … otherwise\\nKey … 143,676 characters
# --8<-- [end:get-per-wire]

claude_read, openai_read = (model_reads(answer, wire) for wire in WIRES)
# verifies: agent.wire-tool-result
assert claude_read == answer and openai_read == '"' + answer.replace("\\", "\\\\").replace('"', '\\"') + '"'
# verifies: agent.wire-tool-result
assert DEFAULT_WIRE == CLAUDE and answer.startswith('"') and openai_read.startswith('"\\"')
# verifies: agent.wire-tool-result
assert model_reads('say "hi"\n', OPENAI) == '"say \\"hi\\"\\n"' and model_reads('say "hi"\n', CLAUDE) == 'say "hi"\n'
# verifies: agent.wire-tool-result
assert model_reads("up \U0001F600", OPENAI) == '"up \\uD83D\\uDE00"' and model_reads("up \U0001F600", CLAUDE) == "up \U0001F600"

# A refusal is the function layer's own string: the same text on both wires.
lookup = Tool("Lookup", "Test", "Lookup(id): one record.", lambda arguments: "record")
refusals = []
for wire in WIRES:
    refusing = Agent(AgentConfiguration("reader", "Look it up.", plugins=["Test"]),
                     PlannedCalls([ToolCall("Missing", {})], answer="Done.", state_in_answer=False),
                     Mesh(), tools=[lookup], wire=wire)
    (refusal,) = refusing.start(Thread("T/_Thread/t"), "Look it up.").turns[0].results
    refusals.append(refusal.text)
# verifies: agent.wire-tool-result
assert refusals == ['Error: Requested function "Missing" not found.'] * 2

# Scenario 3 (two phases, one Get of the report) on each wire, without and with prompt caching.
plain = {wire: run_scenario("worksheet", wire=wire) for wire in WIRES}
cached = {wire: run_scenario("worksheet", caching=True, wire=wire) for wire in WIRES}
tokens = {wire: item_tokens(ToolResult("", "Get", model_reads(answer, wire))) for wire in WIRES}


def _report_turns(result) -> int:
    """Model calls of the reading round shown the report's answer (every call after the Get)."""
    reading = result.runs[0]
    first = next(i for i, turn in enumerate(reading.turns) if any(returned_text(r) == answer for r in turn.results))
    return len(reading.turns) - first - 1


carrying = _report_turns(plain[CLAUDE])
extra = tokens[OPENAI] - tokens[CLAUDE]
price = plain[CLAUDE].price

# verifies: agent.wire-read-path
assert len(openai_read) - len(claude_read) == 65 and extra == 16 and extra / tokens[CLAUDE] < 0.1 / 100
# verifies: agent.wire-read-path
assert carrying == _report_turns(plain[OPENAI]) == 1
# verifies: agent.wire-read-path
assert all(plain[w].grade.correct == plain[w].grade.written == 75 for w in WIRES)
# verifies: agent.wire-read-path
assert plain[OPENAI].usage.total_input - plain[CLAUDE].usage.total_input > extra * carrying
# The model is shown the escaped form; the scripted one reads it through returned_text, decoded.
shown = next(r for turn in plain[OPENAI].runs[0].turns for r in turn.results if returned_text(r) == answer)
# verifies: agent.wire-read-path
assert shown.text == openai_read != answer == returned_text(shown)

# verifies: agent.wire-usage-recorded
assert cached[CLAUDE].recorded == cached[CLAUDE].usage and cached[CLAUDE].recorded.cache_write > 0
# verifies: agent.wire-usage-recorded
assert cached[OPENAI].usage.cache_read > 0 and cached[OPENAI].recorded == recorded(cached[OPENAI].usage, OPENAI)
# verifies: agent.wire-usage-recorded
assert cached[OPENAI].recorded.cache_read == cached[OPENAI].recorded.cache_write == 0
# verifies: agent.wire-usage-recorded
assert cached[OPENAI].recorded.input == cached[OPENAI].usage.total_input

# verifies: agent.displayed-cost
assert displayed_cost(TokenUsage(1_000_000, 1_000_000, 1_000_000, 1_000_000), price) == (
    price.input_per_million * (1 + Decimal("0.1") + Decimal("1.25")) + price.output_per_million)
# verifies: agent.displayed-cost
assert all(displayed_cost(r.recorded, r.price) == r.recorded_cost for r in (*plain.values(), *cached.values()))

# verifies: agent.recorded-cost-floor-per-wire
assert cached[CLAUDE].recorded_cost == cached[CLAUDE].cost and plain[OPENAI].recorded_cost == plain[OPENAI].cost
# verifies: agent.recorded-cost-floor-per-wire
assert cached[OPENAI].recorded_cost > cached[OPENAI].cost and cached[OPENAI].recorded_cost == plain[OPENAI].cost


def _money(value) -> str:
    return f"${value:.4f}"


def _delta(a, b, money=False) -> str:
    difference = b - a
    text = f"{abs(difference):.4f}" if money else f"{abs(difference):,}"
    return ("+" if difference >= 0 else "−") + ("$" if money else "") + text


rows = [
    ("the report's Get answer, characters", len(claude_read), len(openai_read), False),
    ("the same, tokens", tokens[CLAUDE], tokens[OPENAI], False),
    ("model calls shown the report's answer", carrying, _report_turns(plain[OPENAI]), False),
    ("input tokens billed, whole scenario", plain[CLAUDE].usage.total_input, plain[OPENAI].usage.total_input, False),
    ("cost billed", plain[CLAUDE].cost, plain[OPENAI].cost, True),
    ("with caching: cost billed", cached[CLAUDE].cost, cached[OPENAI].cost, True),
    ("with caching: cost recorded (displayed)", cached[CLAUDE].recorded_cost, cached[OPENAI].recorded_cost, True),
]
table = ["| scenario 3 (two phases) | Claude wire | OpenAI wire | difference |", "| --- | ---: | ---: | ---: |"]
for label, a, b, money in rows:
    shown = (_money(a), _money(b)) if money else (f"{a:,}", f"{b:,}")
    table.append(f"| {label} | {shown[0]} | {shown[1]} | {_delta(a, b, money)} |")
capture("agent_wire.md", "\n".join(table))
