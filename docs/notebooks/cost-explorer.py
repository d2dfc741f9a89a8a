# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Cost explorer
#
# This notebook runs on a real Jupyter kernel every time the site is built, so
# every plot and table below is what `agentkit` computes today. It explores the
# cost model of [Designing agents](../../AI/AgentDesign/): every model call bills
# its whole context, so cost is turns times context.
#
# Prices are the example prices of `agentkit` ($3 per million input tokens,
# $15 per million output tokens); change `PRICE` to explore your own.
#
# The report's text is what `Get` returns for the PDF: each page's letters in the
# order the PDF draws them, a table's cells run together (see
# [what Get returns for a PDF](../../Architecture/ContentChunkNavigation/#what-get-returns-for-a-pdf)).

# %%
import matplotlib.pyplot as plt
from IPython.display import Markdown, display

from agentkit import EXAMPLE_PRICES, CallPattern
from agentkit.guide import report_tokens, run_scenario, scenario_table, write_phase_sizes

PRICE = EXAMPLE_PRICES["example-large"]
naive, reread, protocol, bulk = (run_scenario(key) for key in ("naive", "reread", "worksheet", "bulk"))
DOCUMENT = report_tokens()
print(f"The report's full text is {DOCUMENT:,} tokens as a tool result.")

# %% [markdown]
# ## Context size, turn by turn
#
# Each point is one model call and the tokens it was shown. The naive scenario
# (one round) grows with every chunk it reads and every node it creates. The
# worksheet protocol reads the whole report once, in round 1; at the round
# boundary the history is rebuilt from message texts only, and the report is
# gone from every call of round 2.

# %%
# Sized for a phone: one panel above the other, about 520 px wide.
fig, axes = plt.subplots(2, 1, figsize=(5.2, 6.4), sharey=True)
for axis, result in zip(axes, (naive, protocol)):
    sizes = result.context_sizes()
    for number in sorted({round_ for round_, _ in sizes}):
        points = [(i, tokens) for i, (round_, tokens) in enumerate(sizes, start=1) if round_ == number]
        axis.plot(*zip(*points), marker="." if len(points) < 40 else None, label=f"round {number}")
        if number > 1:
            axis.axvline(points[0][0] - 0.5, color="grey", linestyle=":", linewidth=1)
    axis.axhline(DOCUMENT, color="tab:red", linestyle="--", linewidth=1, label="the report alone")
    rounds = "one round" if len(result.runs) == 1 else f"{len(result.runs)} rounds"
    axis.set_title(f"{result.title}: {rounds}, {result.turns} model calls", fontsize=10)
    axis.set_xlabel("model call")
    axis.legend(fontsize=8)
for axis in axes:
    axis.set_ylabel("input tokens of the call")
fig.tight_layout()
plt.show()

# %%
round_one = [tokens for number, tokens in protocol.context_sizes() if number == 1]
round_two = [tokens for number, tokens in protocol.context_sizes() if number == 2]
# verifies: agent.document-dies-with-round
assert round_one[-1] > DOCUMENT > max(round_two)
print(f"Last call of round 1: {round_one[-1]:,} tokens; largest call of round 2: {max(round_two):,} tokens.")

# %% [markdown]
# ## Cost against the number of creates
#
# The closed forms, with the sizes of scenario 3's writing phase: a prefix of
# *P* tokens, *N* creates that each add *d* tokens, issued one per turn
# (sequential) or ten per turn (batched), with the report in context or gone,
# billed without and with prompt caching.

# %%
sizes = write_phase_sizes(protocol)
PREFIX, CALL, RESULT = sizes.prefix, sizes.call, sizes.result
counts = range(1, 151)
lines = [("sequential, report in context", DOCUMENT, 1, "tab:red"),
         ("sequential, report gone", 0, 1, "tab:orange"),
         ("batched by 10, report in context", DOCUMENT, 10, "tab:purple"),
         ("batched by 10, report gone", 0, 10, "tab:green")]
fig, axis = plt.subplots(figsize=(5.2, 5.6))
for label, document, batch, colour in lines:
    patterns = [CallPattern(n, PREFIX, CALL, RESULT, document_tokens=document, batch_size=batch) for n in counts]
    axis.plot(counts, [float(p.cost(PRICE)) for p in patterns], color=colour, label=label)
    axis.plot(counts, [float(p.cost(PRICE, caching=True)) for p in patterns], color=colour, linestyle="--",
              label=f"{label}, caching")
axis.set_yscale("log")
axis.set_xlabel("creates in the writing phase (N)")
axis.set_ylabel("dollars (log scale)")
axis.set_title(f"P = {PREFIX:,} tokens, report = {DOCUMENT:,} tokens,\nd = {CALL} + {RESULT} tokens a create", fontsize=10)
fig.legend(fontsize=8, ncol=2, loc="lower center")
fig.tight_layout(rect=(0, 0.2, 1, 1))
plt.show()

# %%
at_75 = {label: CallPattern(75, PREFIX, CALL, RESULT, document_tokens=d, batch_size=b).cost(PRICE)
         for label, d, b, _ in lines}
# verifies: agent.worked-example-tenth
assert at_75["batched by 10, report gone"] * 10 < at_75["sequential, report in context"]
display(Markdown("\n".join(["| write phase, N = 75 | cost |", "| --- | ---: |"]
                           + [f"| {label} | ${cost:.2f} |" for label, cost in at_75.items()])))

# %% [markdown]
# ## The scenarios
#
# The four scenarios of the guide, each run end to end on the generated report,
# with their cost as a multiple of the floor (the report read once, the
# worksheet and the nodes written once). They are the guide's model: scripted
# habits run by `agentkit`, not measurements; scenario 4's `BulkCreate` is an
# `agentkit` extension the framework does not have.

# %%
display(Markdown(scenario_table([naive, reread, protocol, bulk])))

# %% [markdown]
# ## The scenarios on both wires
#
# The same four scenarios on each provider wire of
# [what the model reads, per provider](../../AI/AgentDesign/#9-what-the-model-reads-per-provider),
# without and with prompt caching. *Billed* is what the provider charges;
# *recorded* is the cost the framework displays from the `_Usage` nodes of the
# run with caching. The OpenAI wire records cached input as plain input.

# %%
from agentkit.guide._wire_costs import WIRE_TITLES, wire_cost_table, wire_costs

wires = wire_costs()  # each scenario on the Claude wire, then on the OpenAI wire
openai = [row for row in wires if row.wire == "openai"]
# verifies: agent.wire-scenario-costs
assert all(row.recorded == row.billed > row.billed_with_caching for row in openai)
display(Markdown(wire_cost_table(wires)))

# %%
# Billed with caching against recorded, per scenario and wire (log scale: the scenarios span two decades).
fig, axis = plt.subplots(figsize=(5.2, 4.4))
width = 0.2
for offset, (wire, measure, label) in enumerate(
        [(w, m, f"{WIRE_TITLES[w]}: {name}") for w in ("claude", "openai")
         for m, name in (("billed_with_caching", "billed"), ("recorded", "recorded"))]):
    rows = [row for row in wires if row.wire == wire]
    axis.bar([i + (offset - 1.5) * width for i in range(len(rows))], [float(getattr(row, measure)) for row in rows],
             width, label=label, hatch="//" if measure == "recorded" else None)
axis.set_xticks(range(4), [row.title.split(". ")[1].replace(" ", "\n") for row in openai], fontsize=9)
axis.set_yscale("log")
axis.set_ylabel("dollars, with caching (log scale)")
axis.set_title("Cost billed and cost recorded, per wire", fontsize=10)
axis.legend(fontsize=8)
fig.tight_layout()
plt.show()
