"""Create workflows: the form-template pattern, read-back verification, and the bulk-create extension."""

import json

from agentkit import ContentType, Mesh, mesh_plugin, tools_by_name
from agentkit.guide import REPORT

mesh = Mesh(node_types={"Company", "Fact", "Folder"})
mesh.register_type(ContentType("Fact", {"lineItem": "string", "period": "string", "value": "number", "unit": "string"}))
mesh.create({"id": "Meridian", "name": REPORT.company, "nodeType": "Company"})
mesh.create({"id": "Meridian/Facts", "name": "Facts", "nodeType": "Folder"})
mesh.create({"id": "Meridian/Facts/rev-FY2023-1", "name": "Revenue FY2023", "nodeType": "Fact",
             "content": {"$type": "Fact", "lineItem": "rev", "period": "FY2023", "value": 4523.1, "unit": "EUR m"}})
mesh.refresh_index()
tools = tools_by_name(mesh_plugin(mesh, bulk_create=True))

# --8<-- [start:form-template]
# Before writing a type for the first time: Get one existing node of it and copy its structure.
template = json.loads(tools["Get"].call({"path": "Meridian/Facts/rev-FY2023-1"}))["content"]
nodes = []
for value in REPORT.values:
    item = REPORT.item(value.item)
    content = dict.fromkeys(template, None) | {
        "$type": template["$type"], "lineItem": item.key, "period": value.period,
        "value": value.value, "unit": item.unit,
    }
    nodes.append({"id": f"Meridian/Facts/{value.fact_id}", "name": f"{item.name} {value.period}",
                  "nodeType": "Fact", "content": content})
assert set(nodes[0]["content"]) == set(template)  # exactly the template's fields, nothing invented
# --8<-- [end:form-template]

guessed = {"id": "Meridian/Facts/guess", "name": "Guess", "nodeType": "Fact",
           "content": {"$type": "Fact", "item": "rev", "fiscalYear": "FY2024", "amount": 4812.3}}
# verifies: mesh.form-template-keeps-values
assert mesh.create(nodes[0]).dropped_fields == () and mesh.typed_view(nodes[0]["id"]) == {
    k: v for k, v in nodes[0]["content"].items() if k != "$type"}
mesh.delete([nodes[0]["id"]])
# verifies: mesh.guessed-structure-loses-values
assert mesh.create(guessed).message == "Created: Meridian/Facts/guess" and mesh.typed_view("Meridian/Facts/guess") == {}
mesh.delete(["Meridian/Facts/guess"])

# --8<-- [start:bulk-create]
answer = tools["BulkCreate"].call({"nodes": json.dumps(nodes)})  # agentkit extension: one call, every node
print(answer.splitlines()[0])
#> Created: Meridian/Facts/rev-FY2024-1
print([line for line in answer.splitlines() if not line.startswith("Created: ")])
#> ['[32] Error creating node: Node already exists: Meridian/Facts/rev-FY2023-1']
# --8<-- [end:bulk-create]

collided = REPORT.values.index(REPORT.value("rev", "FY2023"))
# verifies: mesh.bulk-create-extension
assert answer.splitlines() == [
    f"[{collided}] Error creating node: Node already exists: Meridian/Facts/rev-FY2023-1"
    if i == collided else f"Created: Meridian/Facts/{value.fact_id}"
    for i, value in enumerate(REPORT.values)]
# verifies: mesh.deterministic-ids-collide
assert collided == 32 and mesh.get("Meridian/Facts/rev-FY2023-1").version == 1
# verifies: mesh.deterministic-ids-collide
assert sum(line.startswith("Created: ") for line in answer.splitlines()) == 63
# verifies: mesh.bulk-create-extension
assert "BulkCreate" not in tools_by_name(mesh_plugin(mesh)) and tools["BulkCreate"].description.startswith("[agentkit extension")

# --8<-- [start:read-back]
count = json.loads(tools["Search"].call({"query": "nodeType:Fact", "basePath": "Meridian/Facts"}))["count"]
# the index has not seen the batch yet: it counts only the template node
print(count)
#> 1
checks = {"$type": "Fact", "lineItem": "eps", "period": "FY2024", "unit": "EUR"}
read_back = json.loads(tools["Get"].call({"path": "Meridian/Facts/eps-FY2024-12"}))["content"]
print(all(read_back[field] == expected for field, expected in checks.items()),
      read_back["value"] == REPORT.value("eps", "FY2024").value)
#> True True
# --8<-- [end:read-back]

# verifies: mesh.search-not-for-verification, mesh.index-count-may-miss
assert count == 1 and all(mesh.exists(f"Meridian/Facts/{v.fact_id}") for v in REPORT.values)
# verifies: mesh.index-count-may-miss, mesh.read-back-defaults-omitted
assert all(json.loads(tools["Get"].call({"path": f"Meridian/Facts/{v.fact_id}"}))["path"] for v in REPORT.values)
mesh.refresh_index()
# verifies: mesh.search-not-for-verification, mesh.index-count-may-miss
assert json.loads(tools["Search"].call({"query": "nodeType:Fact", "basePath": "Meridian/Facts", "limit": 200}))["count"] == len(REPORT.values) == 64
mesh.create({"id": "Meridian/Facts/zero", "name": "Zero", "nodeType": "Fact",
             "content": {"$type": "Fact", "lineItem": "rev", "period": "FY2024", "value": 0, "unit": "EUR m"}})
zero = json.loads(tools["Get"].call({"path": "Meridian/Facts/zero"}))["content"]
# verifies: mesh.read-back-defaults-omitted
assert "value" not in zero and zero == {"$type": "Fact", "lineItem": "rev", "period": "FY2024", "unit": "EUR m"}
# verifies: mesh.read-back-one-get-per-type
assert read_back == {"$type": "Fact", "lineItem": "eps", "period": "FY2024", "value": 1.94, "unit": "EUR"}
