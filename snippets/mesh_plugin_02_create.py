"""Create's critical rules: required fields, the $type discriminator, and the silent drop."""

import json

from agentkit import ContentType, Mesh, mesh_plugin, tools_by_name

mesh = Mesh()
# The registered type of node type Fact: its $type name and its exact field names.
mesh.register_type(ContentType("Fact", {"lineItem": "string", "period": "string", "value": "number", "unit": "string"}))
mesh.create({"id": "Meridian", "name": "Meridian Components Group", "nodeType": "Company"})
create = tools_by_name(mesh_plugin(mesh))["Create"]

BAD_INPUTS = [
    ("a node without `id`", {"node": '{"name": "Revenue FY2024", "nodeType": "Fact"}'}),
    ("a node without `nodeType`", {"node": '{"id": "Meridian/rev-FY2024-1", "name": "Revenue FY2024"}'}),
    ("a node without `name`", {"node": '{"id": "Meridian/rev-FY2024-1", "nodeType": "Fact"}'}),
    ("single-quoted JSON", {"node": "{'id': 'rev-FY2024-1'}"}),
    ("a namespace with a space", {"node": '{"id": "rev", "namespace": "Meridian/Key figures", "name": "R", "nodeType": "Fact"}'}),
    ("a text where `value` needs a number",
     {"node": '{"id": "Meridian/rev-FY2024-1", "name": "R", "nodeType": "Fact", "content": {"$type": "Fact", "value": "4,812.3"}}'}),
]


def error_table() -> str:
    """What Create answers to each bad input: the framework's openings, then agentkit's precise rest."""
    lines = ["| Input | Create answers |", "|---|---|"]
    for label, arguments in BAD_INPUTS:
        lines.append(f"| {label} | `{create.call(arguments)}` |")
    return "\n".join(lines)


CAPTURES = {"create_errors.md": error_table}

answers = [create.call(arguments) for _, arguments in BAD_INPUTS]
# verifies: mesh.create-required-fields
assert [answer.split(".")[0] for answer in answers[:3]] == [
    "Error: cannot create: 'id' is not set", "Error: cannot create: 'nodeType' is not set",
    "Error: cannot create: 'name' is not set"]
# verifies: mesh.create-invalid-json
assert answers[3].startswith("Invalid JSON: ") and "Tip: send one JSON value with double-quoted keys" in answers[3]
# verifies: mesh.create-malformed-namespace
assert answers[4].startswith("Error: cannot create: namespace 'Meridian/Key figures' is malformed")
# verifies: mesh.create-schema-mismatch
assert answers[5].startswith("Content does not match the schema for NodeType 'Fact'")
# verifies: mesh.create-nothing-written-on-error
assert [node.path for node in mesh.nodes()] == ["Meridian"]

# --8<-- [start:create]
print(create.call({"node": json.dumps({
    "id": "Meridian/rev-FY2024-1",  # the part before the last '/' becomes the namespace
    "name": "Revenue FY2024",
    "nodeType": "Fact",
    "content": {"$type": "Fact", "lineItem": "rev", "period": "FY2024", "value": 4812.3, "unit": "EUR m"},
})}))
#> Created: Meridian/rev-FY2024-1
# --8<-- [end:create]

stored = mesh.get("Meridian/rev-FY2024-1")
# verifies: mesh.create-id-splits-namespace
assert (stored.namespace, stored.id, stored.path) == ("Meridian", "rev-FY2024-1", "Meridian/rev-FY2024-1")
# verifies: mesh.create-collides
assert create.call({"node": {"id": "Meridian/rev-FY2024-1", "name": "again", "nodeType": "Fact"}}).startswith(
    "Error: cannot create: a node already exists at 'Meridian/rev-FY2024-1'")

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

# --8<-- [start:type-discriminator]
# Both are stored, but empty in every typed view:
for content in ({"lineItem": "np", "value": 411.3},                    # no $type
                {"$type": "fact", "lineItem": "np", "value": 411.3}):  # wrong case: not registered
    node = {"id": "Meridian/np-FY2024-11", "name": "Net profit FY2024", "nodeType": "Fact", "content": content}
    print(create.call({"node": node}), mesh.typed_view("Meridian/np-FY2024-11"))
    mesh.delete(["Meridian/np-FY2024-11"])
#> Created: Meridian/np-FY2024-11 {}
#> Created: Meridian/np-FY2024-11 {}
# --8<-- [end:type-discriminator]

for content in ({"lineItem": "np", "value": 411.3}, {"$type": "fact", "lineItem": "np", "value": 411.3}):
    mesh.create({"id": "Meridian/np", "name": "Net profit", "nodeType": "Fact", "content": content})
    # verifies: mesh.create-type-discriminator
    assert mesh.typed_view("Meridian/np") == {} and mesh.get("Meridian/np").content["value"] == 411.3
    mesh.delete(["Meridian/np"])

# --8<-- [start:strict]
strict_create = tools_by_name(mesh_plugin(mesh, strict=True))["Create"]
print(strict_create.call({"node": {
    "id": "Meridian/rev-FY2022-1", "name": "Revenue FY2022", "nodeType": "Fact",
    "content": {"$type": "Fact", "lineItem": "rev", "amount": 4100.0},
}}))
#> Strict mode: field(s) 'amount' are not part of $type 'Fact' ... Known fields: lineItem, period, unit, value.
# --8<-- [end:strict]

# verifies: mesh.create-strict-extension
assert strict_create.call({"node": {"id": "Meridian/x", "name": "x", "nodeType": "Fact", "content": {"$type": "Fact", "amount": 1}}}) == (
    "Strict mode: field(s) 'amount' are not part of $type 'Fact' and would be dropped silently. "
    "Known fields: lineItem, period, unit, value.")
# verifies: mesh.create-strict-extension
assert "is not registered" in strict_create.call({"node": {"id": "Meridian/x", "name": "x", "nodeType": "Fact", "content": {"$type": "fact"}}})
# verifies: mesh.create-strict-extension
assert not mesh.exists("Meridian/x") and mesh.create({"id": "Meridian/y", "name": "y", "nodeType": "Fact", "content": {"$type": "Fact", "amount": 1}}).dropped_fields == ("amount",)
