"""Create: identity checks, JSON repair, the $type discriminator, the silent drop, and strict mode (an extension)."""

import json

from claimcheck import capture
from claimcheck.agentview import AgentView
from agentkit import ContentType, Mesh, content_collection_plugin, mcp_tools, mesh_plugin, tools_by_name
from agentkit._plugins import FUNCTION_FAILED
from agentkit._content_types import MARKDOWN_TYPE

mesh = Mesh(node_types={"Company", "Fact", "Folder"})
# The registered type of node type Fact: its $type name and its exact field names.
mesh.register_type(ContentType("Fact", {"lineItem": "string", "period": "string", "value": "number", "unit": "string"}))
mesh.create({"id": "Meridian", "name": "Meridian Components Group", "nodeType": "Company"})
# Every tool call below is recorded for the page's "Tool call" listings (claimcheck/agentview.py).
VIEW = AgentView(__file__)
create = VIEW.wrap(tools_by_name(mesh_plugin(mesh)))["Create"]

BAD_INPUTS = [
    ("a node without `id`", {"node": '{"name": "Revenue FY2024", "nodeType": "Fact"}'}),
    ("a node without `nodeType`", {"node": '{"id": "Meridian/rev-FY2024-1", "name": "Revenue FY2024"}'}),
    ("a node without `name`", {"node": '{"id": "Meridian/rev-FY2024-1", "nodeType": "Fact"}'}),
    ("a namespace with `//`", {"node": '{"id": "rev", "namespace": "Meridian//Facts", "name": "R", "nodeType": "Fact"}'}),
    ("single-quoted JSON", {"node": "{'id': 'rev-FY2024-1'}"}),
    ("a text where `value` needs a number",
     {"node": '{"id": "Meridian/rev-FY2024-1", "name": "R", "nodeType": "Fact", "content": {"$type": "Fact", "value": "4,812.3"}}'}),
    ("a `nodeType` no NodeType has", {"node": '{"id": "Meridian/rev-FY2024-1", "name": "R", "nodeType": "Facts"}'}),
]


def error_table(answers: list[str]) -> str:
    """What Create answered to each bad input, cut after its first sentence (the framework's words, but for {detail})."""
    lines = ["| Input | Create answers |", "|---|---|"]
    for (label, _), answer in zip(BAD_INPUTS, answers):
        first = answer.split(". ")[0] + ("." if ". " in answer else "")
        lines.append(f"| {label} | `{first}` … |")
    return "\n".join(lines)


answers = [create.call(arguments) for _, arguments in BAD_INPUTS]
# verifies: mesh.create-required-fields
assert [answer.split(". ")[0] for answer in answers[:3]] == [
    "Error: cannot create: 'id' is not set", "Error: cannot create 'Meridian/rev-FY2024-1': 'nodeType' is not set",
    "Error: cannot create 'Meridian/rev-FY2024-1': 'name' is not set"]
# verifies: mesh.create-required-fields
assert answers[6] == "Error creating node: NodeType 'Facts' is not registered"
capture("create_errors.md", error_table(answers))
# verifies: mesh.create-required-fields
assert create.call({"node": json.dumps({"id": "Meridian/t", "name": "T", "nodeType": "Meridian"})}) == "Created: Meridian/t"
mesh.delete(["Meridian/t"])  # a node at the nodeType's path counts, as a NodeType defined in the mesh does
# verifies: mesh.create-malformed-namespace
assert answers[3].startswith("Error: cannot create 'rev': namespace 'Meridian//Facts' is malformed.")
# verifies: mesh.create-checks-nothing-else
assert create.call({"node": json.dumps({"id": "rev 1", "namespace": "Meridian/Key figures", "name": "R", "nodeType": "Fact"})}) == \
    "Created: Meridian/Key figures/rev 1"
mesh.delete(["Meridian/Key figures/rev 1"])
for blank, refusal in (({"id": "  ", "name": "R"}, "Error: cannot create: 'id' is not set."),
                       ({"id": "rev-2", "name": " \t"}, "Error: cannot create 'Meridian/rev-2': 'name' is not set.")):
    # verifies: mesh.create-checks-nothing-else
    assert create.call({"node": json.dumps({"namespace": "Meridian", "nodeType": "Fact", **blank})}).startswith(refusal)
# verifies: mesh.create-checks-nothing-else
assert not mesh.exists("Meridian/rev-2")
# verifies: mesh.create-malformed-namespace
assert [create.call({"node": json.dumps({"id": "n", "namespace": ns, "name": "N", "nodeType": "Fact"})}) for ns in (" '@/Meridian' ", "/Meridian/")] \
    == ["Created: Meridian/n", "Error: cannot create 'n': namespace 'Meridian/' is malformed. The namespace is the parent "
        "path, segments separated by single slashes, no trailing slash (e.g. \"ACME/Projects\", \"User/rbuergi\")."]
mesh.delete(["Meridian/n"])
mesh.register_node_type("AccessAssignment")
misplaced = [create.call({"node": json.dumps(node)}) for node in (
    {"id": "_Comment/c1", "name": "C", "nodeType": "Fact"},
    {"id": "Meridian/_Access/ann_Access", "name": "Ann", "nodeType": "AccessAssignment", "mainNode": "Other"})]
# verifies: mesh.create-satellite-refusals
assert misplaced[0].startswith("Error creating node: Satellite '_Comment/c1' is anchored at a top-level / ownerless path: ")
# verifies: mesh.create-satellite-refusals
assert misplaced[1].startswith("Error creating node: AccessAssignment 'Meridian/_Access/ann_Access' has MainNode='Other' but")
# verifies: mesh.create-satellite-refusals
assert create.call({"node": json.dumps({"id": "Meridian/_Comment/c1", "name": "C", "nodeType": "Fact"})}) == "Created: Meridian/_Comment/c1"
# verifies: mesh.create-satellite-refusals
assert create.call({"node": json.dumps({"id": "ann_Access", "namespace": "@Meridian/_Access", "name": "Ann",  # no mainNode:
                                        "nodeType": "AccessAssignment"})}).startswith(  # it is the path as sent
    "Error creating node: AccessAssignment 'Meridian/_Access/ann_Access' has MainNode='@Meridian/_Access/ann_Access' but")
# verifies: mesh.create-satellite-refusals
assert create.call({"node": json.dumps({"id": "ann_Access", "namespace": "Meridian/_Access", "name": "Ann",
                                        "nodeType": "AccessAssignment"})}) == "Created: Meridian/_Access/ann_Access"
mesh.delete(["Meridian/_Access/ann_Access"])
mesh.delete(["Meridian/_Comment/c1"])
mesh.node_types.discard("AccessAssignment")
two_nodes = '[{"id": "Meridian/a", "name": "A", "nodeType": "Fact"}, {"id": "Meridian/b", "name": "B", "nodeType": "Fact"}]'
# verifies: mesh.create-invalid-json, mesh.create-json-not-one-node
assert create.call({"node": two_nodes}).startswith("Invalid JSON: ") and not mesh.exists("Meridian/a")
# verifies: mesh.create-json-not-one-node
assert create.call({"node": '{"id": "Meridian/rev", "name": "R", "nodeType": "Fact", "order": "x"}'}).startswith("Invalid JSON: ")
# verifies: mesh.create-invalid-json
assert create.call({"node": "null"}) == "Invalid node: deserialized to null."
# verifies: mesh.create-invalid-json
assert create.call({"node": '{"id": "Meridian/c", /* kept */ "name": "C", "nodeType": "Fact",}'}) == "Created: Meridian/c"
mesh.delete(["Meridian/c"])
# verifies: mesh.create-invalid-json
assert answers[4].startswith("Invalid JSON: ") and answers[4].endswith(
    "Tip: ensure all quotes and special characters in markdown content are properly escaped for JSON strings.")
# verifies: mesh.create-schema-mismatch
assert answers[5].startswith("Error: Content does not match the schema for NodeType 'Fact'. ")
# verifies: mesh.create-schema-mismatch
assert "Expected content schema for NodeType 'Fact': " in answers[5]
for not_an_object in ([], "x", 4812.3):
    # verifies: mesh.create-schema-mismatch
    assert create.call({"node": json.dumps({"id": "Meridian/rev-FY2024-1", "name": "R", "nodeType": "Fact", "content": not_an_object})}
                       ).startswith("Error: Content does not match the schema for NodeType 'Fact'. ")
# verifies: mesh.create-nothing-written-on-error, mesh.create-bootstrap-leftovers
assert [node.path for node in mesh.nodes()] == ["Meridian"]

# --8<-- [start:create]
print(create.call({"node": json.dumps({
    "id": "Meridian/rev-FY2024-1",  # the part before the last '/' becomes the namespace
    "name": "Revenue FY2024",
    "nodeType": "Fact",
    "content": {"$type": "Fact", "lineItem": "rev", "period": "FY2024", "value": 4812.3, "unit": "EUR m"},
})}))
#> Created: Meridian/rev-FY2024-1
print(create.call({"node": json.dumps({"id": "Meridian/rev-FY2024-1", "name": "Revenue FY2024", "nodeType": "Fact"})}))
#> Error creating node: Node already exists: Meridian/rev-FY2024-1
print(create.call({"node": {"id": "Meridian/rev-FY2024-2", "name": "Revenue FY2024", "nodeType": "Fact"}}))  # an object
#> Error: Function failed.
# --8<-- [end:create]
capture("mesh_view_create.md", VIEW.markdown("create"))

# The four JSON-text parameters, wherever an agent tool has one: with each required argument as its type takes it,
# the call binds; an object, an array, a number or a flag there fails before the tool runs. So does leaving out a
# required argument, of any agent tool.
agent_tools = mesh_plugin(Mesh(node_types={"Fact"})) + content_collection_plugin(Mesh(node_types={"Fact"}))
JSON_TEXT = ("node", "nodes", "fields", "paths")
SAMPLE = {"string": "x", "integer": 0, "boolean": False}
for tool in agent_tools:
    binding = {p.name: SAMPLE[p.type] for p in tool.parameters if p.required}
    # verifies: mesh.arguments-bind-by-type
    assert tool.call(binding) != FUNCTION_FAILED, tool.name
    for parameter in tool.parameters:
        for wrong in ({"a": 1}, [1], 4812.3, True) if parameter.name in JSON_TEXT else ():
            # verifies: mesh.arguments-bind-by-type
            assert tool.call({**binding, parameter.name: wrong}) == FUNCTION_FAILED, (tool.name, parameter.name, wrong)
        if parameter.required:
            # verifies: mesh.arguments-bind-by-type
            assert tool.call({k: v for k, v in binding.items() if k != parameter.name}) == FUNCTION_FAILED, tool.name
# verifies: mesh.arguments-bind-by-type
assert sorted((tool.name, p.name, p.type) for tool in agent_tools for p in tool.parameters if p.name in JSON_TEXT) == [
    ("Create", "node", "string"), ("Delete", "paths", "string"), ("Patch", "fields", "string"), ("Update", "nodes", "string")]

stored = mesh.get("Meridian/rev-FY2024-1")
# verifies: mesh.create-id-splits-namespace
assert (stored.namespace, stored.id, stored.path) == ("Meridian", "rev-FY2024-1", "Meridian/rev-FY2024-1")
# verifies: mesh.create-collides
assert mesh.get("Meridian/rev-FY2024-1").content["value"] == 4812.3 and stored.version == 1

# --8<-- [start:repair]
# Two nodes in one Create: the text is cut after the first '}' that closes valid JSON.
print(create.call({"node": '{"id": "Meridian/a", "name": "A", "nodeType": "Folder"}, '
                           '{"id": "Meridian/b", "name": "B", "nodeType": "Folder"}'}))
#> Created: Meridian/a
# --8<-- [end:repair]

# verifies: mesh.create-repairs-json
assert mesh.exists("Meridian/a") and not mesh.exists("Meridian/b")

# --8<-- [start:silent-drop]
# No error, no warning:
print(create.call({"node": json.dumps({
    "id": "Meridian/rev-FY2023-1", "name": "Revenue FY2023", "nodeType": "Fact",
    "content": {"$type": "Fact", "lineItem": "rev", "period": "FY2023", "amount": 4523.1, "currency": "EUR"},
})}))
#> Created: Meridian/rev-FY2023-1
# But 'amount' and 'currency' are gone:
print(mesh.typed_view("Meridian/rev-FY2023-1"))
#> {'lineItem': 'rev', 'period': 'FY2023'}
# --8<-- [end:silent-drop]

# verifies: mesh.create-silent-drop
assert mesh.typed_view("Meridian/rev-FY2023-1") == {"lineItem": "rev", "period": "FY2023"}
# verifies: mesh.create-silent-drop
assert "amount" not in mesh.get("Meridian/rev-FY2023-1").content
markdown = Mesh(node_types={"Markdown"})  # MarkdownContent keeps unknown fields in its extension-data bag
markdown.register_type(MARKDOWN_TYPE)
markdown.create({"id": "Notes", "name": "Notes", "nodeType": "Markdown",
                 "content": {"$type": "MarkdownContent", "content": "# Notes", "titel": "Typo"}})
# verifies: mesh.create-extension-data-kept
assert json.loads(tools_by_name(mcp_tools(markdown))["get"].call({"path": "Notes"}))["content"]["titel"] == "Typo"

# --8<-- [start:type-discriminator]
# A node type that is not built in (defined in the mesh, or compiled): stored, but empty in every typed view.
for content in ({"lineItem": "np", "value": 411.3},                    # no $type
                {"$type": "fact", "lineItem": "np", "value": 411.3}):  # wrong case: not registered
    node = {"id": "Meridian/np-FY2024-11", "name": "Net profit FY2024", "nodeType": "Fact", "content": content}
    print(create.call({"node": json.dumps(node)}), mesh.typed_view("Meridian/np-FY2024-11"))
    mesh.delete(["Meridian/np-FY2024-11"])
#> Created: Meridian/np-FY2024-11 {}
#> Created: Meridian/np-FY2024-11 {}
# A built-in node type refuses an unregistered $type (since e298c8cf8):
mesh.builtin_node_types.add("Fact")
print(create.call({"node": json.dumps({"id": "Meridian/np-FY2024-11", "name": "Net profit FY2024", "nodeType": "Fact",
                            "content": {"$type": "fact", "value": 411.3}})}))
#> Error creating node: Content of 'Meridian/np-FY2024-11' carries the polymorphic discriminator '$type': 'fact', ...
# --8<-- [end:type-discriminator]

# verifies: mesh.create-refuses-unregistered-type
assert not mesh.exists("Meridian/np-FY2024-11")
# verifies: mesh.create-refuses-unregistered-type
assert create.call({"node": json.dumps({"id": "Meridian/np", "name": "NP", "nodeType": "Fact", "content": {"value": 1}})}) == \
    "Created: Meridian/np"
mesh.delete(["Meridian/np"])
mesh.builtin_node_types.discard("Fact")
for content in ({"lineItem": "np", "value": 411.3}, {"$type": "fact", "lineItem": "np", "value": 411.3}):
    mesh.create({"id": "Meridian/np", "name": "Net profit", "nodeType": "Fact", "content": content})
    # verifies: mesh.create-type-discriminator
    assert not mesh.get("Meridian/np").typed and mesh.get("Meridian/np").content["value"] == 411.3
    mesh.delete(["Meridian/np"])
mesh.create({"id": "Meridian/np", "name": "Net profit", "nodeType": "Fact",
             "content": {"$type": "Meridian.Model.Fact", "lineItem": "np", "value": 411.3}})
# verifies: mesh.create-type-discriminator
assert mesh.get("Meridian/np").typed and mesh.get("Meridian/np").content["$type"] == "Fact"  # by its last segment
mesh.delete(["Meridian/np"])

# --8<-- [start:strict]
strict_create = tools_by_name(mesh_plugin(mesh, strict=True))["Create"]  # agentkit extension
print(strict_create.call({"node": json.dumps({
    "id": "Meridian/rev-FY2022-1", "name": "Revenue FY2022", "nodeType": "Fact",
    "content": {"$type": "Fact", "lineItem": "rev", "amount": 4100.0},
})}))
#> Strict mode: field(s) 'amount' are not part of $type 'Fact' ... Known fields: lineItem, period, unit, value.
# --8<-- [end:strict]

# verifies: mesh.create-strict-extension
assert strict_create.call({"node": json.dumps({"id": "Meridian/x", "name": "x", "nodeType": "Fact", "content": {"$type": "Fact", "amount": 1}})}) == (
    "Strict mode: field(s) 'amount' are not part of $type 'Fact' and would be dropped silently. "
    "Known fields: lineItem, period, unit, value.")
# verifies: mesh.create-strict-extension
assert "is not registered" in strict_create.call({"node": json.dumps({"id": "Meridian/x", "name": "x", "nodeType": "Fact", "content": {"$type": "fact"}})})
# verifies: mesh.create-strict-extension
assert not mesh.exists("Meridian/x") and mesh.create({"id": "Meridian/y", "name": "y", "nodeType": "Fact", "content": {"$type": "Fact", "amount": 1}}).dropped_fields == ("amount",)
# verifies: mesh.create-strict-extension
assert Mesh().strict is False and create.call({"node": json.dumps({"id": "Meridian/z", "name": "z", "nodeType": "Fact", "content": {"$type": "Fact", "amount": 1}})}) == "Created: Meridian/z"
